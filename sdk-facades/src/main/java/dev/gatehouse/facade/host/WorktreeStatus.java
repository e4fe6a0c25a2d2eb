package dev.gatehouse.facade.host;

import java.util.List;

/**
 * The git worktree of a thread, without the host's workspace reference.
 *
 * @param branch       checked-out branch
 * @param clean        no uncommitted changes
 * @param changedFiles paths of changed files, relative to the worktree
 * @param ahead        commits ahead of upstream
 * @param behind       commits behind upstream
 */
public record WorktreeStatus(String branch, boolean clean, List<String> changedFiles, int ahead, int behind) {
    public WorktreeStatus {
        changedFiles = List.copyOf(changedFiles);
    }
}
