package dev.gatehouse.local.project;

import dev.gatehouse.local.storage.DataDirectory;
import dev.gatehouse.local.storage.JsonState;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/** The project store on {@code <data-dir>/project/state.json}. */
@Factory
public class ProjectBeans {

    @Singleton
    ProjectStore projectStore(DataDirectory data) {
        return new ProjectStore(new JsonState<>(data.child("project").resolve("state.json"), ProjectState.class));
    }

    @Singleton
    NoticeStore noticeStore(ProjectStore projects) {
        return new NoticeStore(projects);
    }
}
