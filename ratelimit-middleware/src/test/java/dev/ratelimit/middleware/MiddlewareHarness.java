package dev.ratelimit.middleware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.testing.StoreEngine;
import dev.ratelimit.core.testing.TestChain;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.IbcModule;
import dev.ratelimit.middleware.ibc.Ics4Wrapper;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.function.Executable;
import org.mockito.ArgumentMatcher;

/**
 * One chain with the middleware under test: a real keeper over a real store (memory or LevelDB,
 * keys under a module prefix of a store shared with the app, as a host wires it), FakeBank and
 * FakeChannels, a Mockito transfer app above and a Mockito channel keeper below. InitGenesis has
 * run, so the hour epoch exists.
 */
final class MiddlewareHarness implements AutoCloseable {
  /** The keeper's keys live under this prefix; the app writes under {@link #APP_KEY}. */
  static final byte[] MODULE_PREFIX = "ratelimit/".getBytes(StandardCharsets.US_ASCII);

  /** A key the mocked app writes, outside the module's prefix. */
  static final byte[] APP_KEY = "transfer/escrow/ustrd".getBytes(StandardCharsets.US_ASCII);

  static final String PORT = "transfer";
  static final String RELAYER = "cosmos1relayer";
  static final Height TIMEOUT_HEIGHT = new Height(1, 5_000);
  static final long TIMEOUT_TIMESTAMP = 1_704_100_000_000_000_000L;

  static final String ALICE = "stride1alice";
  static final String BOB = "osmo1bob";

  final TestChain chain;
  final RateLimitKeeper keeper;
  final IbcModule app = mock(IbcModule.class);
  final Ics4Wrapper downstream = mock(Ics4Wrapper.class);
  final RateLimitMiddleware middleware;

  private long nextSequence = 1;

  MiddlewareHarness(StoreEngine engine, java.nio.file.Path tempDir, Instant genesisTime) {
    this(engine, tempDir, genesisTime, Optional.empty());
  }

  MiddlewareHarness(
      StoreEngine engine,
      java.nio.file.Path tempDir,
      Instant genesisTime,
      Optional<HourEpoch> epoch) {
    chain = new TestChain(engine.open(tempDir), 1, genesisTime, MODULE_PREFIX);
    keeper = chain.keeper();
    chain.initGenesis(
        new Genesis(List.of(), List.of(), List.of(), List.of(), List.of(), epoch));
    middleware = new RateLimitMiddleware(keeper, downstream, () -> app);
    // The channel keeper assigns increasing sequences unless a test says otherwise.
    when(downstream.sendPacket(any(), any(), any(), any(), anyLong(), any()))
        .thenAnswer(inv -> nextSequence++);
  }

  static MiddlewareHarness inMemory(Instant genesisTime) {
    return new MiddlewareHarness(StoreEngine.MEMORY, null, genesisTime);
  }

  /** The downstream send returns {@code sequence} next (then counts up from it). */
  void nextSequence(long sequence) {
    nextSequence = sequence;
  }

  @Override
  public void close() {
    chain.close();
  }

  // ---------------------------------------------------------------- setup

  BlockContext ctx() {
    return chain.ctx();
  }

  /** Opens a channel (and the supply) and adds a rate limit through the keeper's governance API. */
  RateLimit addLimit(
      String denom, String channel, int sendPct, int recvPct, long hours, long supply) {
    chain.channels().add(channel, "counterparty-1");
    chain.bank().set(denom, supply);
    return keeper.addRateLimit(ctx(), new Path(denom, channel), new Quota(sendPct, recvPct, hours));
  }

  // ---------------------------------------------------------------- packets

  static byte[] data(String denom, String amount, String sender, String receiver) {
    return PacketDataCodec.encode(
        new FungibleTokenPacketData(denom, new BigInteger(amount), sender, receiver));
  }

  static byte[] data(String denom, long amount) {
    return data(denom, Long.toString(amount), ALICE, BOB);
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A packet between our {@code ourChannel} and the counterparty's {@code theirChannel}. */
  static Packet outgoing(long sequence, String ourChannel, String theirChannel, byte[] data) {
    return new Packet(
        sequence, PORT, ourChannel, PORT, theirChannel, data, TIMEOUT_HEIGHT, TIMEOUT_TIMESTAMP);
  }

  /** A packet sent by the counterparty on {@code theirChannel} to our {@code ourChannel}. */
  static Packet incoming(long sequence, String theirChannel, String ourChannel, byte[] data) {
    return new Packet(
        sequence, PORT, theirChannel, PORT, ourChannel, data, TIMEOUT_HEIGHT, TIMEOUT_TIMESTAMP);
  }

  /** The transfer app sends through the middleware, on port transfer. */
  long send(String channel, byte[] data) {
    return middleware.sendPacket(ctx(), PORT, channel, TIMEOUT_HEIGHT, TIMEOUT_TIMESTAMP, data);
  }

  // ---------------------------------------------------------------- state

  Flow flow(String denom, String channel) {
    return keeper.getRateLimit(ctx(), new Path(denom, channel)).orElseThrow().flow();
  }

  static Flow flow(long in, long out, long channelValue) {
    return new Flow(BigInteger.valueOf(in), BigInteger.valueOf(out), BigInteger.valueOf(channelValue));
  }

  Set<Long> sendMarkers(String channel, String denom) {
    return sequences(keeper.getPendingSendPackets(ctx(), new Path(denom, channel)));
  }

  Set<Long> recvMarkers(String channel, String denom) {
    return sequences(keeper.getPendingRecvPackets(ctx(), new Path(denom, channel)));
  }

  private static Set<Long> sequences(List<PendingPacket> markers) {
    return markers.stream().map(PendingPacket::sequence).collect(Collectors.toCollection(TreeSet::new));
  }

  String digest() {
    return chain.digest();
  }

  boolean appKeyWritten() {
    return chain.store().get(APP_KEY).isPresent();
  }

  List<Event> events(String type) {
    return chain.events().ofType(type);
  }

  // ---------------------------------------------------------------- assertions

  /** Runs a step that must fail with {@code code} and proves it left the store unchanged. */
  RateLimitException assertRejectedUnchanged(ErrorCode code, Executable step) {
    String before = digest();
    RateLimitException e = assertThrows(RateLimitException.class, step);
    assertEquals(code, e.code(), () -> "code of: " + e.getMessage());
    assertEquals(before, digest(), "a rejected step must leave the store unchanged");
    return e;
  }

  /**
   * Asserts that the step left exactly one {@code ratelimit_invalid_packet} event, for {@code
   * channel} with {@code code} and an error text, and no {@code transfer_denied}.
   */
  void assertOneInvalidPacketEvent(String channel, int code) {
    List<Event> invalid = events(RateLimitEvents.INVALID_PACKET);
    assertEquals(1, invalid.size(), () -> chain.events().events().toString());
    Map<String, String> a = attributes(invalid.get(0));
    assertEquals("ratelimit", a.get("module"));
    assertEquals(channel, a.get("channel_or_client"));
    assertEquals(Integer.toString(code), a.get("code"));
    assertFalse(a.get("error").isEmpty(), "error text");
    assertEquals(List.of(), events(RateLimitEvents.TRANSFER_DENIED));
  }

  /** The attributes of an event as a map (keys are unique in this module's events). */
  static Map<String, String> attributes(Event event) {
    return event.attributes().stream()
        .collect(Collectors.toMap(Event.Attribute::key, Event.Attribute::value));
  }

  /**
   * Matches the context the middleware hands on: a branch of the current block (same height and
   * time), never a stranger's context.
   */
  ArgumentMatcher<BlockContext> branchOfCurrentBlock() {
    long height = chain.height();
    Instant time = chain.time();
    return c -> c != null && c.isBranch() && c.height() == height && c.time().equals(time);
  }

  BlockContext aBranch() {
    return argThat(branchOfCurrentBlock());
  }

  // ---------------------------------------------------------------- denoms

  /** {@code ibc/} + upper-case hex SHA-256, computed here independently of the resolver. */
  static String ibcHash(String fullPath) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(utf8(fullPath));
      return "ibc/" + HexFormat.of().withUpperCase().formatHex(d);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
