package dev.ratelimit.app.chain;

import static dev.ratelimit.app.testing.Network.STRIDE_CH;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.testing.Network;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.proto.v1.QueryAllRateLimitsResponse;
import dev.ratelimit.proto.v1.QueryRateLimitRequest;
import dev.ratelimit.proto.v1.QueryRateLimitResponse;
import dev.ratelimit.proto.v1.RateLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wired chain answers the module's queries as a node serves {@code abci_query}: by gRPC method
 * path, protobuf bytes in and out, from the committed state.
 */
class AbciQueryTest {
  @TempDir java.nio.file.Path root;

  @Test
  void rateLimitQueries_answerTheCommittedState_byMethodPath() throws Exception {
    try (Network n = Network.start(root)) {
      assertTrue(n.sendUosmoToStride(100).isOk());
      n.relay();
      n.addRateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH, 10, 20, 24);
      assertTrue(n.sendUosmoToStride(8).isOk());
      n.relay();

      QueryAllRateLimitsResponse all = QueryAllRateLimitsResponse.parseFrom(
          n.stride.abciQuery("/ratelimit.v1.Query/AllRateLimits", new byte[0]));
      assertEquals(1, all.getRateLimitsCount());
      RateLimit rl = all.getRateLimits(0);
      assertEquals(STRIDE_UOSMO, rl.getPath().getDenom());
      assertEquals(STRIDE_CH, rl.getPath().getChannelOrClientId());
      assertEquals("10", rl.getQuota().getMaxPercentSend());
      assertEquals("20", rl.getQuota().getMaxPercentRecv());
      assertEquals(24, rl.getQuota().getDurationHours());
      assertEquals("8", rl.getFlow().getInflow());
      assertEquals("0", rl.getFlow().getOutflow());
      assertEquals("100", rl.getFlow().getChannelValue());

      byte[] one = QueryRateLimitRequest.newBuilder()
          .setDenom(STRIDE_UOSMO).setChannelOrClientId(STRIDE_CH).build().toByteArray();
      assertEquals(rl, QueryRateLimitResponse.parseFrom(
          n.stride.abciQuery("/ratelimit.v1.Query/RateLimit", one)).getRateLimit());

      RateLimitException e = assertThrows(RateLimitException.class,
          () -> n.stride.abciQuery("/ratelimit.v1.Query/Nope", new byte[0]));
      assertEquals(ErrorCode.INVALID_REQUEST, e.code());
    }
  }
}
