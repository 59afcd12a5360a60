package dev.ratelimit.core.keeper;

import static dev.ratelimit.core.model.PacketDirection.RECV;
import static dev.ratelimit.core.model.PacketDirection.SEND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.PacketDirection;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimitedPacket;
import dev.ratelimit.core.testing.TestChain;
import java.math.BigInteger;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The original README's walk-through, row by row, at keeper level: a 24-hour 10%/10% limit on
 * ibc/uosmo over channel-5 with a channel value of 100, on the Stride side.
 *
 * <pre>
 * step  transfer                      status    inflow outflow net        channel value
 * 1     rate limit created                      0      0                  100
 * 2     8 uosmo Osmosis -> Stride     ok        8      0       in 8%      100
 * 3     8 uosmo Osmosis -> Stride     rejected  (16)   0       in 16%>10% 100
 * 3     state reverted                          8      0       in 8%      100
 * 4     12 ibc/uosmo Stride -> Osmosis ok       8      12      out 4%     100
 * 5     8 uosmo Osmosis -> Stride     ok        16     12      in 4%      100
 * 6     quota reset                             0      0                  104
 * </pre>
 */
class WalkthroughTest {
  private static final String IBC_UOSMO =
      "ibc/D24B4564BCD51D3D02D9987D92571EAC5915676A9BD6D9B0C1D0254CB8A5EA34";
  private static final String CHANNEL = "channel-5";
  private static final Path PATH = new Path(IBC_UOSMO, CHANNEL);

  private TestChain chain;

  private static BigInteger n(long v) {
    return BigInteger.valueOf(v);
  }

  private boolean transfer(BlockContext ctx, PacketDirection direction, long amount) {
    return chain.keeper().checkRateLimitAndUpdateFlow(
        ctx, direction, new RateLimitedPacket(CHANNEL, IBC_UOSMO, n(amount), "sender", "receiver"));
  }

  /** One row: inflow, outflow, net flow in the given direction (percent of channel value). */
  private void assertRow(long inflow, long outflow, PacketDirection netSide, long netPercent, long cv) {
    Flow f = chain.keeper().getRateLimit(chain.ctx(), PATH).orElseThrow().flow();
    assertEquals(new Flow(n(inflow), n(outflow), n(cv)), f);
    BigInteger net = netSide == RECV ? f.inflow().subtract(f.outflow()) : f.outflow().subtract(f.inflow());
    BigInteger[] pct = net.multiply(n(100)).divideAndRemainder(f.channelValue());
    assertEquals(n(netPercent), pct[0]);
    assertEquals(BigInteger.ZERO, pct[1]); // the README's percentages are exact here
  }

  @Test
  void readmeWalkthrough_rowByRow() {
    // genesis at 23:10 UTC: epoch 23, so the 24-hour window ends at 00:00 UTC
    chain = TestChain.inMemory(Instant.parse("2024-01-01T23:10:00Z"));
    chain.channels().add(CHANNEL, "osmosis-1");
    chain.initGenesis(Genesis.empty());
    assertEquals(
        new HourEpoch(23, Instant.parse("2024-01-01T23:00:00Z"), 1),
        chain.keeper().getHourEpoch(chain.ctx()).orElseThrow());

    // 1. rate limit created, supply 100
    chain.bank().set(IBC_UOSMO, 100);
    chain.keeper().addRateLimit(chain.ctx(), PATH, new Quota(10, 10, 24));
    assertRow(0, 0, RECV, 0, 100);

    // 2. 8 uosmo Osmosis -> Stride: ok, net inflow 8%
    chain.nextBlock(Instant.parse("2024-01-01T23:20:00Z"));
    assertTrue(transfer(chain.ctx(), RECV, 8));
    assertRow(8, 0, RECV, 8, 100);

    // 3. another 8: (8 + 8) / 100 = 16% > 10%, rejected; the step's branch is rolled back
    chain.nextBlock(Instant.parse("2024-01-01T23:30:00Z"));
    String before = chain.digest();
    try (BlockContext step = chain.ctx().branch()) {
      RateLimitException e = assertThrows(RateLimitException.class, () -> transfer(step, RECV, 8));
      assertEquals(ErrorCode.QUOTA_EXCEEDED, e.code());
    }
    assertEquals(before, chain.digest());
    assertRow(8, 0, RECV, 8, 100); // state reverted

    // 4. 12 ibc/uosmo Stride -> Osmosis: 12 > 10% of 100, but the net outflow is only 4%
    chain.nextBlock(Instant.parse("2024-01-01T23:40:00Z"));
    assertTrue(transfer(chain.ctx(), SEND, 12));
    assertRow(8, 12, SEND, 4, 100);

    // 5. the retry of step 3 now succeeds: net inflow 4%
    chain.nextBlock(Instant.parse("2024-01-01T23:50:00Z"));
    assertTrue(transfer(chain.ctx(), RECV, 8));
    assertRow(16, 12, RECV, 4, 100);

    // 6. more uosmo was minted (supply 104); the first block after 00:00 UTC resets the window
    chain.bank().set(IBC_UOSMO, 104);
    chain.beginBlock(Instant.parse("2024-01-02T00:00:00Z")); // exactly 00:00: not yet
    assertRow(16, 12, RECV, 4, 100);
    chain.beginBlock(Instant.parse("2024-01-02T00:00:05Z"));
    assertEquals(24, chain.keeper().getHourEpoch(chain.ctx()).orElseThrow().epochNumber());
    assertRow(0, 0, RECV, 0, 104);
    chain.close();
  }
}
