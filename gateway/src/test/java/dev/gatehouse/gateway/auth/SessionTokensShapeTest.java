package dev.gatehouse.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The session token's shape check against its definition as a regular expression, for every UTF-16 unit. */
class SessionTokensShapeTest {

    private static final Pattern DEFINITION = Pattern.compile("[A-Za-z0-9_-]{43}");

    @Test
    void everyCharacterAtEveryPlaceIsJudgedAsTheDefinitionJudgesIt() {
        for (int place : new int[] {0, 21, 42}) {
            for (char c = 0; c < Character.MAX_VALUE; c++) {
                String token = "a".repeat(place) + c + "a".repeat(42 - place);
                assertEquals(DEFINITION.matcher(token).matches(), SessionTokens.hasMintedShape(token),
                        "U+" + Integer.toHexString(c) + " at " + place);
            }
        }
    }

    @Test
    void onlyTheMintedLengthIsShapedAndMintedTokensAre() {
        for (int length = 0; length <= 100; length++) {
            String token = "A".repeat(length);
            assertEquals(length == 43, SessionTokens.hasMintedShape(token), "length " + length);
        }
        for (int i = 0; i < 1000; i++) {
            String minted = SessionTokens.mint();
            assertTrue(SessionTokens.hasMintedShape(minted), minted);
        }
    }
}
