package dev.gatehouse.facade.host;

import java.util.Optional;

/** A thread's browser preview: whether it is open and at which URL. */
public record PreviewStatus(boolean open, Optional<String> url) {
}
