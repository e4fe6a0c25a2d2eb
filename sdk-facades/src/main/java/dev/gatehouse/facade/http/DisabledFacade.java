package dev.gatehouse.facade.http;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import java.lang.reflect.Proxy;

/**
 * A facade for an integration with no configured URL: every call is {@code unavailable} ("integration disabled",
 * docs/domain.md §8), so the tools stay registered and answer with a kind instead of failing start-up.
 */
public final class DisabledFacade {

    private DisabledFacade() {
    }

    /**
     * @param type    a facade interface whose methods all return {@link FacadeResult}
     * @param service the service name for the message
     */
    public static <T> T of(Class<T> type, String service) {
        FacadeResult<?> disabled = new FacadeResult.Failed<>(
                new ServiceError.Unavailable("the " + service + " integration is disabled"));
        Object proxy = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (self, method, args) -> {
            if (method.getReturnType() == FacadeResult.class) {
                return disabled;
            }
            if (method.getName().equals("toString")) {
                return "DisabledFacade[" + service + "]";
            }
            if (method.getName().equals("hashCode")) {
                return System.identityHashCode(self);
            }
            if (method.getName().equals("equals")) {
                return self == args[0];
            }
            throw new UnsupportedOperationException(method.getName());
        });
        return type.cast(proxy);
    }
}
