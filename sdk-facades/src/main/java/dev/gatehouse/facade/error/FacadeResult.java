package dev.gatehouse.facade.error;

/**
 * What every facade call returns: the projected value, or exactly one {@link ServiceError} kind (docs/domain.md §8).
 * Facades never throw for service or transport failures.
 *
 * @param <T> the projected value of a successful call
 */
public sealed interface FacadeResult<T> {

    /** The service answered and its answer was projected into {@code value}. */
    record Ok<T>(T value) implements FacadeResult<T> {
    }

    /** The call failed; {@code error} says how. */
    record Failed<T>(ServiceError error) implements FacadeResult<T> {
    }
}
