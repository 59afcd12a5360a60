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
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example chain binds its bech32 check as the governance module's {@code AddressCodec} (the
 * README's wiring): a message's authority that is no address of the chain fails the message's
 * basic checks, an address of the chain other than the gov account is the wrong signer. Both are
 * refused when the proposal is submitted, as the Cosmos SDK's gov module refuses them.
 */
class GovernanceAddressesTest {
  @TempDir java.nio.file.Path root;

  @Test
  void messageAuthority_isCheckedAsABech32AddressOfTheChain_atSubmission() {
    try (Network n = Network.start(root)) {
      String msg1 = "proposal message 1 of 1 (/ratelimit.v1.MsgAddRateLimit)";
      assertRefused(n, "gov", 12,
          msg1 + " is invalid: invalid address: authority \"gov\" is not a valid address: invalid"
              + " address \"gov\": bech32 length must be in [8, 1023], got 3");
      String osmosisGov = OsmosisStride.OSMOSIS_AUTHORITY; // well formed, another chain's prefix
      assertRefused(n, osmosisGov, 12,
          msg1 + " is invalid: invalid address: authority \"" + osmosisGov + "\" is not a valid"
              + " address: address \"" + osmosisGov + "\" has prefix osmo, expected stride");
      String mallory = Addresses.named(OsmosisStride.STRIDE_PREFIX, "mallory");
      assertRefused(n, mallory, 13,
          msg1 + " is not signed by the gov account: unauthorized: expected authority \""
              + OsmosisStride.STRIDE_AUTHORITY + "\", got \"" + mallory + "\"");
      assertEquals(Optional.empty(), n.stride.query(ctx -> n.stride.gov().proposal(ctx, 1)));
      assertEquals(Optional.empty(), n.rateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH));

      assertTrue(n.sendUosmoToStride(100).isOk()); // a supply to limit
      n.relay();
      // the gov account passes; the refusals used no proposal id
      TxResult r = submitAddSignedBy(n, OsmosisStride.STRIDE_AUTHORITY);
      assertTrue(r.isOk(), r.log());
      assertEquals(1, r.value().orElseThrow());
      assertEquals(
          Proposal.Status.PASSED,
          n.stride.query(ctx -> n.stride.gov().proposal(ctx, 1)).orElseThrow().status());
      assertTrue(n.rateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH).isPresent());
    }
  }

  private static void assertRefused(Network n, String authority, int code, String log) {
    TxResult r = submitAddSignedBy(n, authority);
    assertEquals(TxException.GOV, r.codespace(), r.log());
    assertEquals(code, r.code(), r.log());
    assertEquals(log, r.log());
    assertEquals(List.of(), r.events());
  }

  /** Submits an AddRateLimit signed by {@code authority} on Stride. */
  private static TxResult submitAddSignedBy(Network n, String authority) {
    MsgAddRateLimit add =
        MsgAddRateLimit.newBuilder()
            .setAuthority(authority)
            .setDenom(STRIDE_UOSMO)
            .setChannelOrClientId(STRIDE_CH)
            .setMaxPercentSend("10")
            .setMaxPercentRecv("10")
            .setDurationHours(24)
            .build();
    return n.net.deliver(n.stride, new MsgSubmitProposal(Network.BOB, List.of(Any.pack(add, ""))));
  }
}
