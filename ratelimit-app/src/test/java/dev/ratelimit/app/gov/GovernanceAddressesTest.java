package dev.ratelimit.app.gov;

import static dev.ratelimit.app.testing.Network.STRIDE_CH;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import dev.ratelimit.app.bank.Addresses;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.app.testing.Network;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example chain binds its bech32 check as the governance module's {@code AddressCodec} (the
 * README's wiring): a message's authority that is no address of the chain is {@code
 * invalid_address}, an address of the chain other than the gov account is {@code unauthorized}.
 */
class GovernanceAddressesTest {
  @TempDir java.nio.file.Path root;

  @Test
  void messageAuthority_isCheckedAsABech32AddressOfTheChain() {
    try (Network n = Network.start(root)) {
      String failed = "proposal message 1 of 1 (/ratelimit.v1.MsgAddRateLimit) failed: ";
      assertEquals(
          "invalid address: " + failed + "authority \"gov\" is not a valid address: invalid"
              + " address \"gov\": bech32 length must be in [8, 1023], got 3",
          failureOf(n, "gov"));
      String osmosisGov = OsmosisStride.OSMOSIS_AUTHORITY; // well formed, another chain's prefix
      assertEquals(
          "invalid address: " + failed + "authority \"" + osmosisGov + "\" is not a valid address:"
              + " address \"" + osmosisGov + "\" has prefix osmo, expected stride",
          failureOf(n, osmosisGov));
      String mallory = Addresses.named(OsmosisStride.STRIDE_PREFIX, "mallory");
      assertEquals(
          "unauthorized: " + failed + "expected authority \"" + OsmosisStride.STRIDE_AUTHORITY
              + "\", got \"" + mallory + "\"",
          failureOf(n, mallory));
      assertEquals(Optional.empty(), n.rateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH));

      assertTrue(n.sendUosmoToStride(100).isOk()); // a supply to limit
      n.relay();
      n.addRateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH, 10, 10, 24); // the gov account passes
      assertTrue(n.rateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH).isPresent());
    }
  }

  /** Submits an AddRateLimit signed by {@code authority} on Stride; the proposal's failure. */
  private static String failureOf(Network n, String authority) {
    MsgAddRateLimit add =
        MsgAddRateLimit.newBuilder()
            .setAuthority(authority)
            .setDenom(STRIDE_UOSMO)
            .setChannelOrClientId(STRIDE_CH)
            .setMaxPercentSend("10")
            .setMaxPercentRecv("10")
            .setDurationHours(24)
            .build();
    TxResult r =
        n.net.deliver(n.stride, new MsgSubmitProposal(Network.BOB, List.of(Any.pack(add, ""))));
    assertTrue(r.isOk(), r.log());
    Proposal p =
        n.stride.query(ctx -> n.stride.gov().proposal(ctx, r.value().orElseThrow())).orElseThrow();
    assertEquals(Proposal.Status.FAILED, p.status());
    return p.failure();
  }
}
