package dev.gatehouse.gateway.gate;

import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * How much of a call's arguments the PEP sends to the PDP, under {@code gatehouse.arguments} (docs/design.md "What
 * a decision costs"). They bound the decision's cost by the input's size: the policy's work grows with every member
 * and every byte it is sent. Every setter rejects a value below 1 with {@link IllegalArgumentException}, so a bad
 * configuration fails at startup.
 */
@ConfigurationProperties("gatehouse.arguments")
public class ArgumentLimits {

    private int maxOpenMembers = 64;
    private int maxUnknownMembers = 8;
    private int maxNameLength = 128;
    private int omitBytes = 256;

    /**
     * {@code max-open-members}: members and array items, at any depth, that a tool's arguments may hold beyond the
     * members its closed schema declares, when the schema has an open part (business data such as
     * {@code project_work_submit}'s {@code result}) or the tool is unknown (a wholly closed schema allows
     * {@link #getMaxUnknownMembers()} more). Default 64: each member costs the policy about 9 µs in the embedded engine
     * (bench/results.md, {@code decision.arguments.*}), and a large payload belongs in a string, which is not sent
     * ({@link #getOmitBytes()}).
     */
    public int getMaxOpenMembers() {
        return maxOpenMembers;
    }

    public void setMaxOpenMembers(int maxOpenMembers) {
        this.maxOpenMembers = positive("max-open-members", maxOpenMembers);
    }

    /**
     * {@code max-unknown-members}: members and array items, at any depth, that arguments of a tool whose schema is
     * wholly closed may hold beyond those it declares and still be validated and sent, so that a call with a few
     * wrong members (an identity key, a misspelt name) is told which ones ({@code identity_argument},
     * {@code schema}). Default 8, which keeps such a decision within twice a valid one's cost.
     */
    public int getMaxUnknownMembers() {
        return maxUnknownMembers;
    }

    public void setMaxUnknownMembers(int maxUnknownMembers) {
        this.maxUnknownMembers = positive("max-unknown-members", maxUnknownMembers);
    }

    /** {@code max-name-length}: the longest member name accepted, in Unicode code points. Default 128. */
    public int getMaxNameLength() {
        return maxNameLength;
    }

    public void setMaxNameLength(int maxNameLength) {
        this.maxNameLength = positive("max-name-length", maxNameLength);
    }

    /**
     * {@code omit-bytes}: a string argument longer than this, in UTF-8 bytes, is not sent to the PDP unless the
     * policy reads its value (a top-level member the access-table row names as a thread, mode or path field); its
     * length and SHA-256 are sent instead. Default 256, the decision log's {@code max-argument-bytes}.
     */
    public int getOmitBytes() {
        return omitBytes;
    }

    public void setOmitBytes(int omitBytes) {
        this.omitBytes = positive("omit-bytes", omitBytes);
    }

    private static int positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException("gatehouse.arguments." + name + " must be at least 1, got " + value);
        }
        return value;
    }
}
