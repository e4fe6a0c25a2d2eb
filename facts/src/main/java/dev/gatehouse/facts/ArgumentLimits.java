package dev.gatehouse.facts;


/**
 * How much of a call's arguments the PEP sends to the PDP, under {@code gatehouse.arguments} (docs/design.md "What
 * a decision costs"). They bound the decision's cost by the input's size: the policy's work grows with every member
 * and every byte it is sent. Every setter rejects a value below 1 with {@link IllegalArgumentException}, so a bad
 * configuration fails at startup.
 */
public class ArgumentLimits {

    private int maxOpenMembers = 64;
    private int maxUnknownMembers = 8;
    private int maxNamesBytes = 1024;
    private int omitBytes = 256;

    /**
     * {@code max-open-members}: members and array items of business data, at any depth: below an object the schema
     * leaves open (such as {@code project_work_submit}'s {@code result}), or anywhere in the arguments of a name no
     * tool is registered under. Default 64: each member costs the policy about 9 µs in the embedded engine
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
     * {@code max-unknown-members}: members and array items the schema does not declare (under a closed object, at
     * any depth, and everything below them) that a call may hold and still be validated and sent, so that a call
     * with a few wrong members (an identity key, a misspelt name) is told which ones ({@code identity_argument},
     * {@code schema}). Default 8, which keeps such a decision within about twice a valid one's cost.
     */
    public int getMaxUnknownMembers() {
        return maxUnknownMembers;
    }

    public void setMaxUnknownMembers(int maxUnknownMembers) {
        this.maxUnknownMembers = positive("max-unknown-members", maxUnknownMembers);
    }

    /**
     * {@code max-names-bytes}: the member names of a call's arguments, at any depth, in UTF-8 bytes in all. Every
     * name is sent to the policy three times (as received, folded, and its path) and examined character by
     * character. Default 1024.
     */
    public int getMaxNamesBytes() {
        return maxNamesBytes;
    }

    public void setMaxNamesBytes(int maxNamesBytes) {
        this.maxNamesBytes = positive("max-names-bytes", maxNamesBytes);
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
