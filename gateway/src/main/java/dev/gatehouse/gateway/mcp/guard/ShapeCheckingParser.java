package dev.gatehouse.gateway.mcp.guard;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import dev.gatehouse.gateway.Utf8;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The guard's shape rules, checked on each token as Jackson reads the body into its tree, so a body is parsed once
 * (issue "the gate's own cost": it was read twice, once to check and once to build the tree): depth, member names
 * unique per object when compared without case, and at the protocol levels (the message object and its
 * {@code params}) no look-alike of a protocol member name and no two names that fold alike; and no string or member
 * name with an unpaired surrogate escape (I-JSON, RFC 7493 §2.1), and no number longer than {@value #MAX_DIGITS}
 * digits when written out. A broken rule ends the read with {@link Refused}. Every way a reader can advance goes through {@link #nextToken}, so
 * no token is skipped unchecked.
 */
final class ShapeCheckingParser extends JsonParserDelegate {

    /** A broken shape rule: the read stops here and the guard answers {@link #rejection}. */
    static final class Refused extends IOException {

        private static final long serialVersionUID = 1L;

        final transient Rejection rejection;

        Refused(String message) {
            super(message);
            this.rejection = Rejection.jsonRpc(400, Rejection.INVALID_REQUEST, message);
        }
    }

    /** One object being read: its member names lower-cased, and at a protocol level their folds. */
    private static final class Frame {
        final Set<String> lowerNames = new HashSet<>();
        final Set<String> folds;
        final boolean root;
        String member;

        Frame(boolean protocolLevel, boolean root) {
            this.folds = protocolLevel ? new HashSet<>() : null;
            this.root = root;
        }
    }

    /** Digits before, and after, a number's point when written out in full; Jackson's bound on a number's text. */
    static final int MAX_DIGITS = 1000;
    private static final String TOO_LONG = "a number in the request has more than " + MAX_DIGITS
            + " digits before or after its point when written out";

    private final int maxDepth;
    private final Deque<Frame> objects = new ArrayDeque<>();
    private int depth;

    ShapeCheckingParser(JsonParser parser, int maxDepth) {
        super(parser);
        this.maxDepth = maxDepth;
    }

    @Override
    public JsonToken nextToken() throws IOException {
        JsonToken token = delegate.nextToken();
        if (token != null) {
            check(token);
        }
        return token;
    }

    private void check(JsonToken token) throws IOException {
        switch (token) {
            case START_OBJECT, START_ARRAY -> {
                if (++depth > maxDepth) {
                    throw new Refused("request nested too deeply");
                }
                if (token == JsonToken.START_OBJECT) {
                    boolean root = depth == 1;
                    boolean params = depth == 2 && !objects.isEmpty() && objects.peek().root
                            && "params".equals(objects.peek().member);
                    objects.push(new Frame(root || params, root));
                }
            }
            case END_OBJECT -> {
                depth--;
                objects.pop();
            }
            case END_ARRAY -> depth--;
            case FIELD_NAME -> {
                unicode(delegate.currentName());
                name(delegate.currentName());
            }
            case VALUE_STRING -> unicode(delegate.getText());
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> number();
            default -> {
            }
        }
    }

    /** A string escape that leaves a surrogate unpaired is no text: every later layer would store a {@code ?}. */
    private static void unicode(String text) throws Refused {
        if (!Utf8.wellFormed(text)) {
            throw new Refused("a string or member name holds an unpaired surrogate escape (such as \\ud800 alone)");
        }
    }

    /**
     * A number whose value Java holds exactly and whose plain form has at most {@value #MAX_DIGITS} digits before
     * and after the point, the bound Jackson puts on a number's text ({@code StreamReadConstraints}): {@code 1e400}
     * passes exactly as business data, but an exponent Java cannot hold ({@code 1e-2147483648}) was a 500, and one it
     * can ({@code 1e2147483647}) is a number no layer after this one can write out or compare exactly in bounded
     * time. An integer's text is already within the bound. Read once here: Jackson keeps the value for the tree.
     */
    private void number() throws IOException {
        if (delegate.currentToken() != JsonToken.VALUE_NUMBER_FLOAT) {
            return;
        }
        BigDecimal value;
        try {
            value = delegate.getDecimalValue();
        } catch (NumberFormatException unrepresentable) {
            throw new Refused(TOO_LONG);
        }
        if ((long) value.precision() - value.scale() > MAX_DIGITS || value.scale() > MAX_DIGITS) {
            throw new Refused(TOO_LONG);
        }
    }

    private void name(String name) throws Refused {
        Frame frame = objects.peek();
        frame.member = name;
        if (!frame.lowerNames.add(name.toLowerCase(Locale.ROOT))) {
            throw new Refused("duplicate member name");
        }
        if (frame.folds != null) {
            if (ProtocolMembers.isLookAlike(name)) {
                throw new Refused("member name looks like a protocol member name");
            }
            if (!frame.folds.add(ProtocolMembers.fold(name))) {
                throw new Refused("duplicate member name");
            }
        }
    }

    // The delegate's own shortcuts would read past nextToken(); each is the same step through it.

    @Override
    public JsonToken nextValue() throws IOException {
        JsonToken token = nextToken();
        return token == JsonToken.FIELD_NAME ? nextToken() : token;
    }

    @Override
    public String nextFieldName() throws IOException {
        return nextToken() == JsonToken.FIELD_NAME ? currentName() : null;
    }

    @Override
    public boolean nextFieldName(SerializableString name) throws IOException {
        return nextToken() == JsonToken.FIELD_NAME && name.getValue().equals(currentName());
    }

    @Override
    public String nextTextValue() throws IOException {
        return nextToken() == JsonToken.VALUE_STRING ? getText() : null;
    }

    @Override
    public int nextIntValue(int defaultValue) throws IOException {
        return nextToken() == JsonToken.VALUE_NUMBER_INT ? getIntValue() : defaultValue;
    }

    @Override
    public long nextLongValue(long defaultValue) throws IOException {
        return nextToken() == JsonToken.VALUE_NUMBER_INT ? getLongValue() : defaultValue;
    }

    @Override
    public Boolean nextBooleanValue() throws IOException {
        JsonToken token = nextToken();
        return token == JsonToken.VALUE_TRUE ? Boolean.TRUE : token == JsonToken.VALUE_FALSE ? Boolean.FALSE : null;
    }

    @Override
    public JsonParser skipChildren() throws IOException {
        if (currentToken() != JsonToken.START_OBJECT && currentToken() != JsonToken.START_ARRAY) {
            return this;
        }
        int open = 1;
        JsonToken token;
        while ((token = nextToken()) != null) {
            if (token.isStructStart()) {
                open++;
            } else if (token.isStructEnd() && --open == 0) {
                break;
            }
        }
        return this;
    }
}
