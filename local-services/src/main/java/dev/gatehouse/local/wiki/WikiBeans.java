package dev.gatehouse.local.wiki;

import dev.gatehouse.local.storage.AtomicFiles;
import dev.gatehouse.local.storage.DataDirectory;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/** The wiki store on {@code <data-dir>/wiki}, cleaned of interrupted writes at start-up. */
@Factory
public class WikiBeans {

    @Singleton
    WikiStore wikiStore(DataDirectory data) {
        WikiStore store = new WikiStore(data.child("wiki"), AtomicFiles.PLAIN);
        store.removeLeftovers();
        return store;
    }
}
