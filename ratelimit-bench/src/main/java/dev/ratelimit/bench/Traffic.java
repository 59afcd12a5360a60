package dev.ratelimit.bench;

import dev.ratelimit.bench.fixture.BenchChain;
import dev.ratelimit.core.model.Texts;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Packet;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * What the JIT has seen before a benchmark measures. HotSpot compiles a method for the inputs it
 * has profiled, so the same code can run at different speeds after different traffic: the check
 * for lone surrogates that every decoded string passes ({@code Texts.firstUnpairedSurrogate}) was
 * almost free on JDK 17 after ASCII text only and ran char by char once a surrogate pair had been
 * through it, and JDK 25 did the reverse (docs/PERFORMANCE.md, "The JIT's profile"). A node's
 * traffic has such text (one memo with an emoji is enough), and sends as well as receives, so
 * {@link #MIXED} is closer to the profile production runs with.
 */
final class Traffic {
  /** Only the benchmark's own packets (ASCII) before the measurement. */
  static final String ASCII = "ascii";

  /** {@link #warmUpMixed} first. */
  static final String MIXED = "mixed";

  /** Packets of each memo {@link #warmUpMixed} sends and receives. */
  static final int PACKETS_PER_MEMO = 5_000;

  /** Memos of real traffic beyond ASCII: accented Latin-1, CJK, an emoji (a surrogate pair). */
  static final List<String> MEMOS =
      List.of("", "caf\u00e9", "\u9001\u91d1", "gm \uD83D\uDE80", "{\"forward\":{\"port\":\"x\"}}");

  private Traffic() {}

  /**
   * Prepares the JIT profile {@code traffic} names.
   *
   * @throws IllegalArgumentException for a value other than {@link #ASCII} and {@link #MIXED}
   */
  static void warmUp(String traffic) {
    switch (traffic) {
      case ASCII -> {}
      case MIXED -> warmUpMixed();
      default ->
          throw new IllegalArgumentException(
              "traffic must be " + ASCII + " or " + MIXED + ", got " + traffic);
    }
  }

  /**
   * Sends and receives, on a chain of its own (so the measured chain's state is untouched), {@link
   * #PACKETS_PER_MEMO} packets with each of {@link #MEMOS}, and as many received packets whose memo
   * is an escaped lone surrogate (refused with an error acknowledgement).
   *
   * @throws IllegalStateException if a packet is not answered as that says (the warm-up would not
   *     be the traffic it claims)
   */
  static void warmUpMixed() {
    BenchChain chain = HotPathBenchmark.newChain(new MemoryKvStore());
    // in blocks of transactions, as the benchmarks run: the same store types reach the same calls
    Blocks blocks = new Blocks(chain.root());
    byte[] refused = loneSurrogateMemo();
    long sequence = 0;
    try {
      for (int i = 0; i < PACKETS_PER_MEMO; i++) {
        for (String memo : MEMOS) {
          chain.send(blocks.current(), BenchChain.packetData(BenchChain.SEND_DENOM, memo));
          blocks.endTx();
          byte[] data = BenchChain.packetData(BenchChain.BASE_DENOM, memo);
          Packet packet = BenchChain.received(++sequence, data);
          expect(true, chain.recv(blocks.current(), packet), "memo " + Texts.quote(memo));
          blocks.endTx();
        }
        Packet packet = BenchChain.received(++sequence, refused);
        expect(false, chain.recv(blocks.current(), packet), "a lone surrogate");
        blocks.endTx();
      }
    } finally {
      blocks.discard();
    }
  }

  private static void expect(boolean success, Optional<Acknowledgement> ack, String what) {
    if (ack.isEmpty() || ack.get().isSuccess() != success) {
      throw new IllegalStateException(
          "warm-up receive with " + what + ": expected " + (success ? "success" : "an error")
              + ", got " + ack);
    }
  }

  /** ICS-20 data whose memo is the JSON escape of a lone surrogate ({@code \\ud800}). */
  static byte[] loneSurrogateMemo() {
    byte[] data = BenchChain.packetData(BenchChain.BASE_DENOM, "x");
    String json = new String(data, StandardCharsets.UTF_8);
    return json.replace("\"memo\":\"x\"", "\"memo\":\"\\ud800\"").getBytes(StandardCharsets.UTF_8);
  }
}
