package dev.gatehouse.gateway.console;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.json.JsonMapper;
import io.micronaut.security.oauth2.endpoint.authorization.state.JacksonStateSerDes;
import io.micronaut.security.oauth2.endpoint.authorization.state.State;
import jakarta.inject.Singleton;

/**
 * Micronaut Security's codec of the sign-in {@code state}, except that a state that is not even base64 reads as no
 * state, like any other state this gateway did not issue: the sign-in fails (401, one WARN line from
 * {@link ConsoleLoginHandler}). The library lets the decoder's exception escape, so anyone could get a 500 and an
 * ERROR with a stack from {@code /console/oauth/callback/console?state=%7B%7D}.
 */
@Singleton
@Replaces(JacksonStateSerDes.class)
public class SignInStates extends JacksonStateSerDes {

    public SignInStates(JsonMapper jsonMapper) {
        super(jsonMapper);
    }

    @Override
    @Nullable
    public State deserialize(String base64State) {
        try {
            return super.deserialize(base64State);
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }
}
