package dev.gatehouse.facade.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facade.http.Fields;
import dev.gatehouse.facade.http.Undecodable;
import java.util.Set;

/**
 * Field-by-field projections of host answers (schemas/services/host.schema.json). Members not read here, such as
 * {@code workspaceRef}, never leave the facade.
 */
final class HostProjections {

    private static final Set<String> RUNTIME_MODES = Set.of("approval-required", "auto-accept-edits", "auto",
            "full-access");
    private static final Set<String> INTERACTION_MODES = Set.of("plan", "default");

    private HostProjections() {
    }

    static ThreadState state(JsonNode node) throws Undecodable {
        return shell(Fields.text(node, "threadId"), node);
    }

    /** The shell members of {@code node} (a thread, or a thread event's {@code thread}) as thread {@code threadId}. */
    static ThreadState shell(String threadId, JsonNode node) throws Undecodable {
        ThreadModes modes = modes(node);
        return new ThreadState(threadId, Fields.bool(node, "archived"), modes.runtimeMode(), modes.interactionMode(),
                Fields.optionalText(node, "activeRunId"), Fields.optionalText(node, "providerInstanceId"),
                Fields.optionalText(node, "projectId"));
    }

    static ThreadSummary summary(JsonNode node) throws Undecodable {
        return new ThreadSummary(Fields.text(node, "threadId"), Fields.text(node, "title"),
                Fields.bool(node, "archived"), modes(node), Fields.optionalText(node, "activeRunId").isPresent(),
                Fields.optionalText(node, "projectId"));
    }

    static ThreadDetail detail(JsonNode node) throws Undecodable {
        return new ThreadDetail(summary(node), Fields.list(node, "messages", message ->
                new ThreadMessage(Fields.text(message, "role"), Fields.text(message, "text"),
                        Fields.text(message, "sentAt"))));
    }

    static HostProject project(JsonNode node) throws Undecodable {
        return new HostProject(Fields.text(node, "projectId"), Fields.text(node, "name"),
                Fields.optionalText(node, "defaultBranch"));
    }

    static WorktreeStatus worktree(JsonNode node) throws Undecodable {
        return new WorktreeStatus(Fields.text(node, "branch"), Fields.bool(node, "clean"),
                Fields.list(node, "changedFiles", file -> {
                    if (!file.isTextual()) {
                        throw new Undecodable("expected string elements in 'changedFiles'");
                    }
                    return file.textValue();
                }), Fields.integer(node, "ahead"), Fields.integer(node, "behind"));
    }

    static PreviewStatus preview(JsonNode node) throws Undecodable {
        return new PreviewStatus(Fields.bool(node, "open"), Fields.optionalText(node, "url"));
    }

    static LaunchedThread launched(JsonNode node) throws Undecodable {
        return new LaunchedThread(Fields.text(node, "threadId"), Fields.text(node, "runId"), modes(node));
    }

    static MessageReceipt message(JsonNode node) throws Undecodable {
        return new MessageReceipt(Fields.text(node, "threadId"), Fields.text(node, "messageId"));
    }

    static InterruptReceipt interrupt(JsonNode node) throws Undecodable {
        return new InterruptReceipt(Fields.text(node, "threadId"), Fields.bool(node, "interrupted"));
    }

    static Delegation delegation(JsonNode node) throws Undecodable {
        return new Delegation(Fields.text(node, "delegationId"), modes(node), Fields.text(node, "status"));
    }

    static EnvironmentPreferences preferences(JsonNode node) throws Undecodable {
        return new EnvironmentPreferences(Fields.optionalText(node, "defaultRuntimeMode"),
                Fields.optionalText(node, "defaultInteractionMode"), Fields.optionalInteger(node, "autoArchiveDays"));
    }

    private static ThreadModes modes(JsonNode node) throws Undecodable {
        String runtime = Fields.text(node, "runtimeMode");
        String interaction = Fields.text(node, "interactionMode");
        // An unknown mode would reach the policy as a fact it cannot rank; refuse it here.
        if (!RUNTIME_MODES.contains(runtime) || !INTERACTION_MODES.contains(interaction)) {
            throw new Undecodable("unknown mode");
        }
        return new ThreadModes(runtime, interaction);
    }
}
