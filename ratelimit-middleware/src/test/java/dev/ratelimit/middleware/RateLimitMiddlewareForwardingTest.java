package dev.ratelimit.middleware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.verifyNoMoreInteractions;

import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.EventSink;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.testing.FakeBank;
import dev.ratelimit.core.testing.FakeChannels;
import dev.ratelimit.middleware.ibc.Counterparty;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.IbcModule;
import dev.ratelimit.middleware.ibc.Ics4Wrapper;
import dev.ratelimit.middleware.ibc.Order;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Everything but the five packet paths forwards verbatim (SPEC §5: handshakes and app version
 * queries): the same arguments reach the wrapped app (handshakes) or the channel keeper below
 * (getAppVersion), the same value comes back, the same exception instance goes up. The methods are
 * found by reflection, so a method added to either port fails here until the middleware forwards
 * it (or it is added to {@link #PACKET_PATHS} with tests of its own).
 */
class RateLimitMiddlewareForwardingTest {
  /** The methods with accounting, tested elsewhere. */
  private static final Set<String> PACKET_PATHS =
      Set.of(
          "sendPacket",
          "writeAcknowledgement",
          "onRecvPacket",
          "onAcknowledgementPacket",
          "onTimeoutPacket");

  private static final BlockContext CTX =
      BlockContext.of(
          12, Instant.parse("2024-01-01T00:00:00Z"), new MemoryKvStore(), EventSink.discarding());

  /** Fresh mocks and middleware: dynamic tests share one test instance, so never share these. */
  private record Fixture(IbcModule app, Ics4Wrapper channel, RateLimitMiddleware middleware) {
    static Fixture create() {
      IbcModule app = mock(IbcModule.class);
      Ics4Wrapper channel = mock(Ics4Wrapper.class);
      return new Fixture(
          app,
          channel,
          new RateLimitMiddleware(
              new RateLimitKeeper(new FakeBank(), new FakeChannels()), channel, () -> app));
    }

    /** The mock the middleware must forward {@code m} to. */
    Object target(Method m) {
      if (m.getDeclaringClass() == IbcModule.class) {
        return app;
      }
      if (m.getDeclaringClass() == Ics4Wrapper.class) {
        return channel;
      }
      throw new AssertionError("a port method declared elsewhere: " + m);
    }
  }

  /** Every public instance method of both ports, in a stable order. */
  private static List<Method> portMethods() {
    return Stream.of(IbcModule.class, Ics4Wrapper.class)
        .flatMap(c -> Arrays.stream(c.getMethods()))
        .filter(m -> !Modifier.isStatic(m.getModifiers()))
        .sorted(Comparator.comparing(Method::toGenericString))
        .toList();
  }

  private static List<Method> forwardedMethods() {
    return portMethods().stream().filter(m -> !PACKET_PATHS.contains(m.getName())).toList();
  }

  /**
   * A distinct argument for each parameter; an unknown parameter type fails the test so a new
   * method shape gets a deliberate value here.
   */
  private static Object[] arguments(Method m) {
    Class<?>[] types = m.getParameterTypes();
    Object[] args = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      Class<?> t = types[i];
      String tag = m.getName() + "#" + i;
      if (t == BlockContext.class) {
        args[i] = CTX;
      } else if (t == String.class) {
        args[i] = new String("arg-" + tag); // a fresh instance: identity is checked too
      } else if (t == Order.class) {
        args[i] = Order.ORDERED;
      } else if (t == List.class) {
        args[i] = new ArrayList<>(List.of("connection-" + i, "connection-x-" + tag));
      } else if (t == Counterparty.class) {
        args[i] = new Counterparty("port-" + tag, "channel-" + (40 + i));
      } else if (t == Height.class) {
        args[i] = new Height(3, 100 + i);
      } else if (t == long.class) {
        args[i] = 1_000L + i;
      } else if (t == byte[].class) {
        args[i] = tag.getBytes(StandardCharsets.UTF_8);
      } else {
        throw new AssertionError("no test value for parameter type " + t + " of " + m);
      }
    }
    return args;
  }

  /** A distinct return value, or null for void. */
  private static Object returnValue(Method m) {
    Class<?> r = m.getReturnType();
    if (r == void.class) {
      return null;
    }
    if (r == String.class) {
      return new String("version-from-" + m.getName());
    }
    if (r == Optional.class) {
      return Optional.of("ics20-1/" + m.getName());
    }
    throw new AssertionError("no test value for return type " + r + " of " + m);
  }

  private static Object invoke(Method m, Object receiver, Object[] args) throws Throwable {
    try {
      return m.invoke(receiver, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Test
  void thePortsStillHaveTheFivePacketPaths() {
    List<String> names = portMethods().stream().map(Method::getName).toList();
    assertTrue(names.containsAll(PACKET_PATHS), names.toString());
    assertFalse(forwardedMethods().isEmpty());
  }

  @TestFactory
  Stream<DynamicTest> everyOtherMethod_isOverriddenByTheMiddleware() {
    return forwardedMethods().stream()
        .map(
            m ->
                DynamicTest.dynamicTest(
                    m.getName(),
                    () -> {
                      Method impl =
                          RateLimitMiddleware.class.getMethod(m.getName(), m.getParameterTypes());
                      assertEquals(
                          RateLimitMiddleware.class,
                          impl.getDeclaringClass(),
                          "a default method would not forward: " + m);
                    }));
  }

  @TestFactory
  Stream<DynamicTest> everyOtherMethod_forwardsTheSameArgumentsAndReturnsTheSameValue() {
    return forwardedMethods().stream()
        .map(
            m ->
                DynamicTest.dynamicTest(
                    m.getName(),
                    () -> {
                      Fixture f = Fixture.create();
                      Object target = f.target(m);
                      Object[] args = arguments(m);
                      Object expected = returnValue(m);
                      if (expected != null) {
                        invoke(m, doReturn(expected).when(target), args);
                      }

                      Object actual = invoke(m, f.middleware(), args);

                      assertSame(expected, actual, "the same value comes back");
                      invoke(m, verify(target, times(1)), args);
                      verifyNoMoreInteractions(f.app(), f.channel());
                      assertSameArguments(m, target, args);
                    }));
  }

  /** Mockito compares with equals(); also demand identity (nothing copied or rebuilt). */
  private static void assertSameArguments(Method m, Object target, Object[] args) {
    var invocations = org.mockito.Mockito.mockingDetails(target).getInvocations();
    assertEquals(1, invocations.size(), m.toString());
    Object[] received = invocations.iterator().next().getRawArguments();
    assertEquals(args.length, received.length);
    for (int i = 0; i < args.length; i++) {
      assertSame(args[i], received[i], m + " argument " + i);
    }
  }

  @TestFactory
  Stream<DynamicTest> everyOtherMethod_rethrowsTheSameExceptionInstance() {
    return forwardedMethods().stream()
        .map(
            m ->
                DynamicTest.dynamicTest(
                    m.getName(),
                    () -> {
                      Fixture f = Fixture.create();
                      Object target = f.target(m);
                      Object[] args = arguments(m);
                      RuntimeException refusal = new IllegalStateException("refused: " + m.getName());
                      invoke(m, doThrow(refusal).when(target), args);

                      Throwable thrown =
                          assertThrows(Throwable.class, () -> invoke(m, f.middleware(), args));

                      assertInstanceOf(IllegalStateException.class, thrown);
                      assertSame(refusal, thrown);
                      invoke(m, verify(target, times(1)), args);
                      verifyNoMoreInteractions(f.app(), f.channel());
                    }));
  }

  @Test
  void handshakes_doNotTouchTheStoreOrTheChannelKeeper() throws Throwable {
    Fixture f = Fixture.create();
    MemoryKvStore store = new MemoryKvStore();
    BlockContext ctx =
        BlockContext.of(1, Instant.parse("2024-01-01T00:00:00Z"), store, EventSink.discarding());
    for (Method m : forwardedMethods()) {
      if (m.getDeclaringClass() != IbcModule.class) {
        continue;
      }
      Object[] args = arguments(m);
      args[0] = ctx;
      invoke(m, f.middleware(), args);
    }
    verifyNoInteractions(f.channel());
    try (var scan = store.scan(null, null)) {
      assertFalse(scan.hasNext(), "handshakes write nothing");
    }
  }

  @Test
  void theAppSupplierIsReadAtCallTime() {
    // Dagger passes a Provider: the app may be built after the middleware.
    IbcModule app = mock(IbcModule.class);
    IbcModule[] current = {null};
    RateLimitMiddleware lazy =
        new RateLimitMiddleware(
            new RateLimitKeeper(new FakeBank(), new FakeChannels()),
            mock(Ics4Wrapper.class),
            () -> current[0]);
    current[0] = app;
    doReturn("ics20-1").when(app).onChanOpenInit(CTX, Order.UNORDERED, List.of(), "transfer", "channel-0", new Counterparty("transfer", ""), "");

    assertEquals(
        "ics20-1",
        lazy.onChanOpenInit(
            CTX, Order.UNORDERED, List.of(), "transfer", "channel-0", new Counterparty("transfer", ""), ""));
  }

  @Test
  void anAppConstructedFirst_isTheOneCalled() {
    IbcModule app = mock(IbcModule.class);
    RateLimitMiddleware direct = new RateLimitMiddleware(
        new RateLimitKeeper(new FakeBank(), new FakeChannels()), mock(Ics4Wrapper.class), app);
    doReturn("ics20-1").when(app).onChanOpenInit(CTX, Order.UNORDERED, List.of(), "transfer",
        "channel-0", new Counterparty("transfer", ""), "");

    assertEquals("ics20-1", direct.onChanOpenInit(CTX, Order.UNORDERED, List.of(), "transfer",
        "channel-0", new Counterparty("transfer", ""), ""));
    assertThrows(NullPointerException.class, () -> new RateLimitMiddleware(
        new RateLimitKeeper(new FakeBank(), new FakeChannels()), mock(Ics4Wrapper.class),
        (IbcModule) null));
  }

  @Test
  void aSupplierReturningNull_failsClearly() {
    RateLimitMiddleware broken =
        new RateLimitMiddleware(
            new RateLimitKeeper(new FakeBank(), new FakeChannels()),
            mock(Ics4Wrapper.class),
            () -> null);

    NullPointerException e =
        assertThrows(
            NullPointerException.class, () -> broken.onChanOpenConfirm(CTX, "transfer", "channel-0"));
    assertTrue(e.getMessage().contains("supplier"), e.getMessage());
  }
}
