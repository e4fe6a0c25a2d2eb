package dev.gatehouse.facade.http;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Re-projects a decoded service answer field by field into a plain value; fields not read are dropped, so
 * service-side identity and credentials cannot leak through.
 *
 * @param <T> the projected value
 */
@FunctionalInterface
public interface Projection<T> {

    /** @throws Undecodable when a required field is missing or has the wrong type */
    T project(JsonNode body) throws Undecodable;
}
