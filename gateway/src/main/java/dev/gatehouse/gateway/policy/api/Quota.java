package dev.gatehouse.gateway.policy.api;

import java.util.Objects;

/**
 * The obligation {@code quota} of an allowed tools/call (schemas/decision.json; docs/domain.md §10): the token bucket
 * the call is charged one token from before its handler may run. The policy builds it from its quota data
 * (policies/gatehouse/quotas/data.json) and trusted facts only; the PEP applies it without knowing what it means.
 *
 * @param bucket        the bucket's key, {@code <caller kind>/<bucket class>/<logical agent id>}: every call that names
 *                      it, on every replica, draws from the same budget; 1 to {@value #MAX_BUCKET_CHARS} characters
 * @param bucketClass   the bucket's class ({@code read}, {@code wiki_write} …), a word of the policy data; tags metrics
 * @param ratePerMinute tokens the bucket regains per minute, spread evenly; at least 1
 * @param burst         the most tokens the bucket holds, so the most calls admitted at once after a quiet time;
 *                      at least 1
 */
public record Quota(String bucket, String bucketClass, long ratePerMinute, long burst) {

    /** The longest bucket key the PEP accepts; a longer one is a malformed decision (policy_unavailable). */
    public static final int MAX_BUCKET_CHARS = 1_024;
    /** The largest rate or burst the PEP accepts; a larger one is a malformed decision. */
    public static final long MAX_TOKENS = 1_000_000_000L;

    public Quota {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(bucketClass, "bucketClass");
        if (bucket.isEmpty() || bucket.length() > MAX_BUCKET_CHARS || bucketClass.isEmpty()) {
            throw new IllegalArgumentException("bucket and class must be non-empty, the bucket at most "
                    + MAX_BUCKET_CHARS + " characters");
        }
        if (ratePerMinute < 1 || ratePerMinute > MAX_TOKENS || burst < 1 || burst > MAX_TOKENS) {
            throw new IllegalArgumentException("rate and burst must be whole numbers from 1 to " + MAX_TOKENS);
        }
    }
}
