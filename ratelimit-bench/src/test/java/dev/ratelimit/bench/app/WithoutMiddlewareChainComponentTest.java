package dev.ratelimit.bench.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.Any;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.gov.MsgSubmitProposal;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.relayer.Coordinator;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.app.relayer.OsmosisStride.ChainOpener;
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The baseline of the app benchmark differs from the example chain by the middleware alone: its
 * governance checks a message's authority with the same bech32 address check.
 */
class WithoutMiddlewareChainComponentTest {
  @TempDir Path root;

  @ParameterizedTest
  @ValueSource(strings = {"with", "without"})
  void governanceRefusesAnAuthorityThatIsNoAddress(String middleware) {
    ChainOpener opener =
        middleware.equals("with") ? ChainComponent::open : WithoutMiddlewareChainComponent::open;
    try (Coordinator net =
        OsmosisStride.start(
            root,
            OsmosisStride.osmosisGenesis(AppThroughputBenchmark.GENESIS).build(),
            OsmosisStride.strideGenesis(AppThroughputBenchmark.GENESIS).build(),
            Coordinator.DEFAULT_BLOCK_STEP,
            opener)) {
      MsgAddRateLimit add =
          MsgAddRateLimit.newBuilder()
              .setAuthority("gov")
              .setDenom("uosmo")
              .setChannelOrClientId(OsmosisStride.OSMOSIS_CHANNEL)
              .setMaxPercentSend("10")
              .setMaxPercentRecv("10")
              .setDurationHours(24)
              .build();
      TxResult r =
          net.deliver(
              net.first(),
              new MsgSubmitProposal(AppThroughputBenchmark.ALICE, List.of(Any.pack(add, ""))));
      assertEquals(TxException.GOV, r.codespace(), r.log());
      assertEquals(12, r.code(), r.log());
      assertEquals(
          "proposal message 1 of 1 (/ratelimit.v1.MsgAddRateLimit) is invalid: invalid address:"
              + " authority \"gov\" is not a valid address: invalid address \"gov\": bech32"
              + " length must be in [8, 1023], got 3",
          r.log(),
          middleware);
    }
  }
}
