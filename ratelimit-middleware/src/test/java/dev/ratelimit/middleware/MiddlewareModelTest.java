package dev.ratelimit.middleware;

import static dev.ratelimit.middleware.MiddlewareHarness.RELAYER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.when;

import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.testing.StoreEngine;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Packet;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seeded random traffic through the middleware against a small model of SPEC §2-§5 written here
 * from the spec (not from the code): sends, receives (sync success, app error, async), acks of
 * every class, timeouts, async acks, supply changes and BeginBlocks across hour boundaries, on
 * paths that share a channel, a denom, or a NUL-extended denom ({@code a} and {@code a\0b}). After
 * every step the flows and pending markers of every path must equal the model's.
 */
class MiddlewareModelTest {
  private static final Instant GENESIS = Instant.parse("2024-01-01T05:10:00Z");
  private static final String OSMO = "osmo1bob";
  private static final String STRIDE = "stride1alice";

  /** A limited path with the model's view of it. */
  private static final class ModelLimit {
    final String denom;
    final String channel;
    final Quota quota;
    BigInteger inflow = BigInteger.ZERO;
    BigInteger outflow = BigInteger.ZERO;
    BigInteger channelValue;
    final Set<Long> sendMarkers = new TreeSet<>();
    final Set<Long> recvMarkers = new TreeSet<>();

    ModelLimit(String denom, String channel, Quota quota, BigInteger channelValue) {
      this.denom = denom;
      this.channel = channel;
      this.quota = quota;
      this.channelValue = channelValue;
    }
  }

  /** A packet in flight: sent awaiting ack/timeout, or received awaiting its async ack. */
  private record InFlight(Packet packet, String channel, String localDenom, BigInteger amount) {}

  private MiddlewareHarness h;
  private Random r;
  private final Map<String, ModelLimit> limits = new HashMap<>();
  private final Map<String, Long> supply = new HashMap<>();
  private final List<InFlight> sent = new ArrayList<>();
  private final List<InFlight> asyncRecvs = new ArrayList<>();
  private long epochNumber;
  private Instant epochStart;
  private long nextSendSequence = 1;
  private long nextRecvSequence = 1;

  private static String key(String channel, String denom) {
    return channel + "|" + denom;
  }

  @ParameterizedTest(name = "seed {0} on {1}")
  @CsvSource({"1, MEMORY", "2, MEMORY", "3, MEMORY", "4, MEMORY", "5, LEVELDB"})
  void randomTraffic_matchesTheModel(long seed, StoreEngine engine, @TempDir java.nio.file.Path dir) {
    r = new Random(seed);
    h = new MiddlewareHarness(engine, dir, GENESIS);
    try {
      epochNumber = 5;
      epochStart = Instant.parse("2024-01-01T05:00:00Z");
      String atomVoucher = MiddlewareHarness.ibcHash("transfer/channel-0/uatom");
      addLimit("ustrd", "channel-0", 10, 10, 1, 1000);
      addLimit("ustrd", "channel-1", 20, 5, 2, 1000);
      addLimit("a", "channel-0", 10, 10, 3, 600);
      addLimit("a\u0000b", "channel-0", 10, 10, 1, 900);
      addLimit(atomVoucher, "channel-0", 15, 15, 24, 800);
      h.keeper.addDenomToBlacklist(h.ctx(), "ubad");
      h.keeper.setWhitelistedAddressPair(h.ctx(), new WhitelistedAddressPair("stride1w", "osmo1w"));
      h.chain.channels().add("channel-2", "counterparty-2"); // no limits there

      Map<String, Integer> seen = new HashMap<>();
      for (int step = 0; step < 400; step++) {
        String op = step();
        assertMatchesModel(seed + "/" + step + " " + op);
        String outcome = op.replaceAll(" .*", "");
        if (op.contains("rejected")) {
          outcome += op.substring(op.length() - 1); // send4, recv7, ...
        }
        seen.merge(outcome, 1, Integer::sum);
        if (op.startsWith("begin block") && !op.endsWith("(+0h)")) {
          seen.merge("window", 1, Integer::sum);
        }
      }
      // The run must have exercised the interesting outcomes, not only the happy path.
      for (String outcome :
          List.of("send", "send4", "send7", "recv", "recv4", "recv7", "ack", "timeout", "write", "window")) {
        assertTrue(seen.getOrDefault(outcome, 0) > 0, () -> outcome + " never happened: " + seen);
      }
    } finally {
      h.close();
    }
  }

  private void addLimit(String denom, String channel, int send, int recv, long hours, long cv) {
    h.addLimit(denom, channel, send, recv, hours, cv);
    supply.put(denom, cv);
    limits.put(
        key(channel, denom),
        new ModelLimit(denom, channel, new Quota(send, recv, hours), BigInteger.valueOf(cv)));
  }

  // ---------------------------------------------------------------- one random step

  private String step() {
    int dice = r.nextInt(100);
    if (dice < 30) {
      return send();
    } else if (dice < 55) {
      return recv();
    } else if (dice < 70 && !sent.isEmpty()) {
      return ack();
    } else if (dice < 78 && !sent.isEmpty()) {
      return timeout();
    } else if (dice < 88 && !asyncRecvs.isEmpty()) {
      return writeAck();
    } else if (dice < 93) {
      return setSupply();
    } else {
      return beginBlock();
    }
  }

  private <T> T pick(List<T> list) {
    return list.get(r.nextInt(list.size()));
  }

  private BigInteger amount() {
    return BigInteger.valueOf(r.nextInt(10) == 0 ? r.nextInt(400) : r.nextInt(60));
  }

  private String[] addresses(boolean outgoing) {
    if (r.nextInt(8) == 0) {
      return outgoing ? new String[] {"stride1w", "osmo1w"} : new String[] {"osmo1w", "stride1w"};
    }
    return outgoing ? new String[] {STRIDE, OSMO} : new String[] {OSMO, STRIDE};
  }

  private String send() {
    String channel = pick(List.of("channel-0", "channel-0", "channel-1", "channel-2"));
    String packetDenom =
        pick(List.of("ustrd", "a", "a\u0000b", "transfer/channel-0/uatom", "ubad", "uother"));
    String local =
        packetDenom.contains("/") ? MiddlewareHarness.ibcHash(packetDenom) : packetDenom;
    BigInteger amount = amount();
    String[] who = addresses(true);
    byte[] data = MiddlewareHarness.data(packetDenom, amount.toString(), who[0], who[1]);
    long sequence = nextSendSequence++;
    h.nextSequence(sequence);

    Optional<Integer> expected = expectCheck(true, channel, local, amount, who);
    if (expected.isPresent()) {
      RateLimitException e = assertThrows(RateLimitException.class, () -> h.send(channel, data));
      assertEquals(expected.get(), e.code().code(), e.getMessage());
      return "send rejected " + expected.get();
    }
    assertEquals(sequence, h.send(channel, data));
    ModelLimit l = limits.get(key(channel, local));
    boolean counted = l != null && !whitelisted(who);
    if (counted) {
      l.outflow = l.outflow.add(amount);
      l.sendMarkers.add(sequence);
    }
    sent.add(
        new InFlight(
            MiddlewareHarness.outgoing(sequence, channel, "channel-9", data), channel, local, amount));
    return "send " + amount + " " + local + " on " + channel;
  }

  private String recv() {
    String channel = pick(List.of("channel-0", "channel-0", "channel-1", "channel-2"));
    String source = "channel-7";
    String packetDenom =
        pick(
            List.of(
                "transfer/channel-7/ustrd",
                "transfer/channel-7/a",
                "transfer/channel-7/a\u0000b",
                "uatom",
                "transfer/channel-7/ubad",
                "transfer/channel-70/ustrd"));
    String prefix = "transfer/" + source + "/";
    String local =
        packetDenom.startsWith(prefix)
            ? packetDenom.substring(prefix.length())
            : MiddlewareHarness.ibcHash("transfer/" + channel + "/" + packetDenom);
    BigInteger amount = amount();
    String[] who = addresses(false);
    Packet p =
        MiddlewareHarness.incoming(
            nextRecvSequence++,
            source,
            channel,
            MiddlewareHarness.data(packetDenom, amount.toString(), who[0], who[1]));
    // 0 success, 1 error, 2 async; then async with the ack written through the middleware while
    // the app still runs: 3 success, 4 error, 5 error in a branch the app discards (still pending)
    int appMode = r.nextInt(6);
    doAnswer( // not when(): stubbing again would run the previous answer with null arguments
            inv -> {
              BlockContext c = inv.getArgument(0);
              switch (appMode) {
                case 0 -> {
                  return Optional.of(Acknowledgement.SUCCESS);
                }
                case 1 -> {
                  return Optional.of(Acknowledgement.error("transfer failed"));
                }
                case 3 -> h.middleware.writeAcknowledgement(c, inv.getArgument(1), Acknowledgement.SUCCESS);
                case 4 -> h.middleware.writeAcknowledgement(
                    c, inv.getArgument(1), Acknowledgement.error("forward failed"));
                case 5 -> {
                  try (BlockContext own = c.branch()) {
                    h.middleware.writeAcknowledgement(
                        own, inv.getArgument(1), Acknowledgement.error("forward failed"));
                  } // discarded: nothing was acked
                }
                default -> { }
              }
              return Optional.empty();
            })
        .when(h.app)
        .onRecvPacket(any(), any(), any());

    Optional<Acknowledgement> ack = h.middleware.onRecvPacket(h.ctx(), p, RELAYER);

    Optional<Integer> expected = expectCheck(false, channel, local, amount, who);
    if (expected.isPresent()) {
      assertEquals(
          "{\"error\":\"ABCI code: "
              + expected.get()
              + ": error handling packet: see events for details\"}",
          new String(ack.orElseThrow().toJsonBytes(), StandardCharsets.UTF_8));
      return "recv rejected " + expected.get();
    }
    ModelLimit l = limits.get(key(channel, local));
    boolean counted = l != null && !whitelisted(who);
    switch (appMode) {
      case 0 -> {
        assertTrue(ack.orElseThrow().isSuccess());
        if (counted) {
          l.inflow = l.inflow.add(amount);
        }
      }
      case 1 -> assertFalse(ack.orElseThrow().isSuccess());
      case 3 -> { // settled at once: counted, no marker
        assertEquals(Optional.empty(), ack);
        if (counted) {
          l.inflow = l.inflow.add(amount);
        }
      }
      case 4 -> assertEquals(Optional.empty(), ack); // counted and given back: no change
      default -> {
        assertEquals(Optional.empty(), ack);
        if (counted) {
          l.inflow = l.inflow.add(amount);
          l.recvMarkers.add(p.sequence());
        }
        asyncRecvs.add(new InFlight(p, channel, local, amount));
      }
    }
    return "recv " + amount + " " + local + " on " + channel + " app " + appMode;
  }

  /** SPEC §2's order of checks; empty when the packet passes. */
  private Optional<Integer> expectCheck(
      boolean send, String channel, String local, BigInteger amount, String[] who) {
    if (local.equals("ubad")) {
      return Optional.of(7);
    }
    ModelLimit l = limits.get(key(channel, local));
    if (l == null || whitelisted(who)) {
      return Optional.empty();
    }
    int pct = send ? l.quota.maxPercentSend() : l.quota.maxPercentRecv();
    BigInteger threshold = l.channelValue.multiply(BigInteger.valueOf(pct)).divide(BigInteger.valueOf(100));
    BigInteger net = send ? l.outflow.subtract(l.inflow) : l.inflow.subtract(l.outflow);
    if (l.channelValue.signum() != 0 && net.add(amount).compareTo(threshold) > 0) {
      return Optional.of(4);
    }
    return Optional.empty();
  }

  private static boolean whitelisted(String[] who) {
    return who[0].equals("stride1w") && who[1].equals("osmo1w");
  }

  private String ack() {
    InFlight f = pick(sent);
    int kind = r.nextInt(3);
    byte[] ack =
        switch (kind) {
          case 0 -> "{\"result\":\"AQ==\"}".getBytes(StandardCharsets.UTF_8);
          case 1 -> "{\"error\":\"failed\"}".getBytes(StandardCharsets.UTF_8);
          default -> "{\"result\":\"\"}".getBytes(StandardCharsets.UTF_8);
        };
    h.middleware.onAcknowledgementPacket(h.ctx(), f.packet(), ack, RELAYER);
    ModelLimit l = limits.get(key(f.channel(), f.localDenom()));
    if (l != null && kind != 2 && l.sendMarkers.remove(f.packet().sequence()) && kind == 1) {
      l.outflow = l.outflow.subtract(f.amount()).max(BigInteger.ZERO);
    }
    if (kind != 2 && r.nextBoolean()) {
      sent.remove(f); // sometimes a duplicate delivery follows
    }
    return "ack " + kind + " of " + f.packet().sequence();
  }

  private String timeout() {
    InFlight f = pick(sent);
    h.middleware.onTimeoutPacket(h.ctx(), f.packet(), RELAYER);
    ModelLimit l = limits.get(key(f.channel(), f.localDenom()));
    if (l != null && l.sendMarkers.remove(f.packet().sequence())) {
      l.outflow = l.outflow.subtract(f.amount()).max(BigInteger.ZERO);
    }
    sent.remove(f);
    return "timeout of " + f.packet().sequence();
  }

  private String writeAck() {
    InFlight f = pick(asyncRecvs);
    boolean success = r.nextBoolean();
    h.middleware.writeAcknowledgement(
        h.ctx(), f.packet(), success ? Acknowledgement.SUCCESS : Acknowledgement.error("x"));
    ModelLimit l = limits.get(key(f.channel(), f.localDenom()));
    if (l != null && l.recvMarkers.remove(f.packet().sequence()) && !success) {
      l.inflow = l.inflow.subtract(f.amount()).max(BigInteger.ZERO);
    }
    asyncRecvs.remove(f);
    return "write ack " + success + " of " + f.packet().sequence();
  }

  private String setSupply() {
    String denom = pick(new ArrayList<>(new TreeSet<>(supply.keySet())));
    long value = r.nextInt(4) == 0 ? 0 : 200 + r.nextInt(2000);
    supply.put(denom, value);
    h.chain.bank().set(denom, value);
    return "supply " + denom + " = " + value;
  }

  private String beginBlock() {
    Instant time = h.chain.time().plus(Duration.ofMinutes(r.nextInt(10) == 0 ? 60 * 30 : 5 + r.nextInt(90)));
    h.chain.beginBlock(time);
    long k = 0;
    while (epochStart.plus(Duration.ofHours(k + 1)).isBefore(time)) {
      k++;
    }
    if (k > 0) {
      long before = epochNumber;
      epochNumber += k;
      epochStart = epochStart.plus(Duration.ofHours(k));
      for (ModelLimit l : limits.values()) {
        long d = l.quota.durationHours();
        if ((before + k) / d > before / d) {
          long s = supply.getOrDefault(l.denom, 0L);
          if (s != 0) {
            l.channelValue = BigInteger.valueOf(s);
          }
          l.inflow = BigInteger.ZERO;
          l.outflow = BigInteger.ZERO;
          l.sendMarkers.clear();
          l.recvMarkers.clear();
        }
      }
    }
    return "begin block " + time + " (+" + k + "h)";
  }

  private void assertMatchesModel(String where) {
    for (ModelLimit l : limits.values()) {
      assertEquals(
          new Flow(l.inflow, l.outflow, l.channelValue),
          h.flow(l.denom, l.channel),
          () -> where + ": flow of " + l.channel + "/" + l.denom);
      assertEquals(l.sendMarkers, h.sendMarkers(l.channel, l.denom), () -> where + ": send markers");
      assertEquals(l.recvMarkers, h.recvMarkers(l.channel, l.denom), () -> where + ": recv markers");
    }
    assertEquals(
        limits.values().stream().mapToInt(l -> l.sendMarkers.size()).sum(),
        h.keeper.getAllPendingSendPackets(h.ctx()).size(),
        () -> where + ": no marker outside a limited path");
    assertEquals(
        limits.values().stream().mapToInt(l -> l.recvMarkers.size()).sum(),
        h.keeper.getAllPendingRecvPackets(h.ctx()).size(),
        () -> where + ": no recv marker outside a limited path");
    assertEquals(epochNumber, h.keeper.getHourEpoch(h.ctx()).orElseThrow().epochNumber(), where);
    assertTrue(h.keeper.hasRateLimit(h.ctx(), new Path("ustrd", "channel-0")));
  }
}
