package dev.ratelimit.middleware.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class DenomResolverTest {
  /** sha256("transfer/channel-0/uatom"), as the README and SPEC give it. */
  static final String ATOM_VIA_CHANNEL_0 =
      "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2";

  /** sha256("transfer/channel-5/uosmo"): uosmo on Stride, from the README. */
  static final String OSMO_ON_STRIDE =
      "ibc/D24B4564BCD51D3D02D9987D92571EAC5915676A9BD6D9B0C1D0254CB8A5EA34";

  /** Our own hash for derived rows: "ibc/" + upper-case hex SHA-256. */
  static String h(String path) {
    try {
      return "ibc/"
          + HexFormat.of()
              .withUpperCase()
              .formatHex(
                  MessageDigest.getInstance("SHA-256")
                      .digest(path.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void ownHash_agreesWithTheKnownLiterals() {
    assertEquals(ATOM_VIA_CHANNEL_0, h("transfer/channel-0/uatom"));
    assertEquals(OSMO_ON_STRIDE, h("transfer/channel-5/uosmo"));
  }

  static Stream<Arguments> sends() {
    return Stream.of(
        arguments("native", "ustrd", "ustrd"),
        arguments("native with a slash", "gamm/pool/1", "gamm/pool/1"),
        arguments("non-native, 1 hop", "transfer/channel-0/uatom", ATOM_VIA_CHANNEL_0),
        arguments(
            "non-native, 2 hops",
            "transfer/channel-0/transfer/channel-1/uatom",
            h("transfer/channel-0/transfer/channel-1/uatom")),
        arguments(
            "non-native, 3 hops",
            "transfer/channel-3/transfer/channel-2/transfer/channel-1/ujuno",
            h("transfer/channel-3/transfer/channel-2/transfer/channel-1/ujuno")),
        arguments("ibc/ pass-through", ATOM_VIA_CHANNEL_0, ATOM_VIA_CHANNEL_0),
        arguments("ibc/ prefix is never re-hashed", "ibc/abc-5/x", "ibc/abc-5/x"),
        arguments("two parts is a base denom", "transfer/channel-1", "transfer/channel-1"),
        arguments(
            "invalid channel id is a base denom",
            "transfer/channelToA/uatom",
            "transfer/channelToA/uatom"),
        arguments(
            "client id hop", "transfer/07-tendermint-5/uatom", h("transfer/07-tendermint-5/uatom")),
        arguments("any valid hop id counts", "abc/xyz-5/token", h("abc/xyz-5/token")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sends")
  void sendDenom(String name, String packetDenom, String expected) {
    assertEquals(expected, DenomResolver.sendDenom(packetDenom));
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(
      strings = {"", " ", "\u3000", "transfer/channel-1/transfer/channel-2", "transfer/channel-1/"})
  void sendDenom_invalid(String packetDenom) {
    RateLimitException e =
        assertThrows(RateLimitException.class, () -> DenomResolver.sendDenom(packetDenom));
    assertEquals(ErrorCode.INVALID_PACKET_DATA, e.code());
  }

  /**
   * {@code sendDenom} is memoized: on seeded denoms, called twice, it gives what a trace's reading
   * gives ({@code ibc/...} as is, else the parsed trace's {@code ibcDenom}) or an error of the same
   * code, and the second call gives exactly what the first gave.
   */
  @Test
  void sendDenom_memoized_agreesWithTheTracesReading() {
    String[] pool = {"transfer", "channel-0", "channel-1", "07-tendermint-3", "uatom", "", " ",
        "ibc", "gamm"};
    Random random = new Random(0x5E_2D);
    for (int i = 0; i < 20_000; i++) {
      String denom = DenomTraceTest.randomPath(random, pool, 5);
      String expected = outcome(
          () -> denom.startsWith("ibc/") ? denom : DenomTrace.parse(denom).ibcDenom());
      String first = outcome(() -> DenomResolver.sendDenom(denom));
      // the same local denom, or the same error code (the blank check words its own message)
      assertEquals(expected.split(":")[0], first.split(":")[0], denom);
      assertEquals(first, outcome(() -> DenomResolver.sendDenom(denom)), denom);
    }
  }

  /**
   * name, source port, source channel, destination port, destination channel, denom, source?,
   * local.
   */
  static Stream<Arguments> receives() {
    return Stream.of(
        arguments(
            "sink, native uosmo on channel-5 (README)",
            "transfer",
            "channel-326",
            "transfer",
            "channel-5",
            "uosmo",
            false,
            OSMO_ON_STRIDE),
        arguments(
            "sink, 2 hops",
            "transfer",
            "channel-326",
            "transfer",
            "channel-5",
            "transfer/channel-7/ujuno",
            false,
            h("transfer/channel-5/transfer/channel-7/ujuno")),
        arguments(
            "sink, 3 hops",
            "transfer",
            "channel-326",
            "transfer",
            "channel-5",
            "transfer/channel-7/transfer/channel-8/ujuno",
            false,
            h("transfer/channel-5/transfer/channel-7/transfer/channel-8/ujuno")),
        arguments(
            "sink, base denom with slashes",
            "transfer",
            "channel-326",
            "transfer",
            "channel-5",
            "gamm/pool/1",
            false,
            h("transfer/channel-5/gamm/pool/1")),
        arguments(
            "sink, a counterparty denom named ibc/...",
            "transfer",
            "channel-326",
            "transfer",
            "channel-5",
            "ibc/ABC",
            false,
            h("transfer/channel-5/ibc/ABC")),
        arguments(
            "source, native comes home",
            "transfer",
            "channel-1",
            "transfer",
            "channel-5",
            "transfer/channel-1/ustrd",
            true,
            "ustrd"),
        arguments(
            "source, non-native unwinds one hop",
            "transfer",
            "channel-1",
            "transfer",
            "channel-5",
            "transfer/channel-1/transfer/channel-2/ujuno",
            true,
            h("transfer/channel-2/ujuno")),
        arguments(
            "source, base denom with slashes",
            "transfer",
            "channel-1",
            "transfer",
            "channel-5",
            "transfer/channel-1/gamm/pool/1",
            true,
            "gamm/pool/1"),
        arguments(
            "look-alike prefix channel-10 from channel-1 is a sink",
            "transfer",
            "channel-1",
            "transfer",
            "channel-5",
            "transfer/channel-10/uatom",
            false,
            h("transfer/channel-5/transfer/channel-10/uatom")),
        arguments(
            "prefix without the trailing slash is a sink",
            "transfer",
            "channel-1",
            "transfer",
            "channel-5",
            "transfer/channel-1",
            false,
            h("transfer/channel-5/transfer/channel-1")),
        arguments(
            "port mismatch is a sink",
            "transfer",
            "channel-1",
            "transfer",
            "channel-5",
            "other/channel-1/uatom",
            false,
            h("transfer/channel-5/other/channel-1/uatom")),
        arguments(
            "source case on the packet's own source port, not a fixed transfer",
            "wasm.osmo1xyz",
            "channel-1",
            "transfer",
            "channel-5",
            "wasm.osmo1xyz/channel-1/uatom",
            true,
            "uatom"),
        arguments(
            "sink case prepends the packet's own destination port, not a fixed transfer",
            "transfer",
            "channel-1",
            "custom",
            "channel-5",
            "uosmo",
            false,
            h("custom/channel-5/uosmo")),
        arguments(
            "IBC v2 client ids, source",
            "transfer",
            "07-tendermint-5",
            "transfer",
            "07-tendermint-9",
            "transfer/07-tendermint-5/uatom",
            true,
            "uatom"),
        arguments(
            "IBC v2 client ids, sink",
            "transfer",
            "07-tendermint-5",
            "transfer",
            "07-tendermint-9",
            "uatom",
            false,
            h("transfer/07-tendermint-9/uatom")),
        arguments(
            "client id hop inside a sink trace",
            "transfer",
            "channel-326",
            "transfer",
            "channel-5",
            "transfer/07-tendermint-5/uatom",
            false,
            h("transfer/channel-5/transfer/07-tendermint-5/uatom")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("receives")
  void recvDenom(
      String name,
      String sourcePort,
      String sourceChannel,
      String destinationPort,
      String destinationChannel,
      String packetDenom,
      boolean source,
      String expected) {
    ReceivedDenom r =
        DenomResolver.recvDenom(
            sourcePort, sourceChannel, destinationPort, destinationChannel, packetDenom);
    assertEquals(source, r.source());
    assertEquals(expected, r.localDenom());
    assertEquals(expected, r.trace().ibcDenom());
    if (!source) {
      assertEquals(
          destinationPort + "/" + destinationChannel + "/" + packetDenom, r.trace().fullPath());
    }

    Packet packet =
        new Packet(
            1,
            sourcePort,
            sourceChannel,
            destinationPort,
            destinationChannel,
            new byte[] {1},
            Height.ZERO,
            1);
    assertEquals(r, DenomResolver.recvDenom(packet, packetDenom));
  }

  @Test
  void recvDenom_localVoucherTraceIsWhatTheChainSendsBack() {
    // uosmo arrives on channel-5; sending the voucher back out puts its trace in the packet
    ReceivedDenom in =
        DenomResolver.recvDenom("transfer", "channel-326", "transfer", "channel-5", "uosmo");
    assertEquals(in.localDenom(), DenomResolver.sendDenom(in.trace().fullPath()));
    // and on Osmosis the returning packet is the source case
    assertEquals(
        "uosmo",
        DenomResolver.recvDenom(
                "transfer", "channel-5", "transfer", "channel-326", in.trace().fullPath())
            .localDenom());
  }

  static Stream<Arguments> invalidReceives() {
    return Stream.of(
        arguments(
            "empty base in a sink",
            "channel-9",
            "channel-5",
            "transfer/channel-1/transfer/channel-2",
            ErrorCode.INVALID_PACKET_DATA),
        arguments(
            "empty base after stripping",
            "channel-1",
            "channel-5",
            "transfer/channel-1/",
            ErrorCode.INVALID_PACKET_DATA),
        arguments(
            "empty base left after stripping",
            "channel-1",
            "channel-5",
            "transfer/channel-1/transfer/channel-2/transfer/channel-3",
            ErrorCode.INVALID_PACKET_DATA),
        arguments(
            "blank base",
            "channel-9",
            "channel-5",
            "transfer/channel-1/ ",
            ErrorCode.INVALID_PACKET_DATA),
        arguments("empty denom", "channel-9", "channel-5", "", ErrorCode.INVALID_PACKET_DATA),
        arguments("blank denom", "channel-9", "channel-5", " \t", ErrorCode.INVALID_PACKET_DATA),
        arguments(
            "destination is no channel or client id",
            "channel-9",
            "channelX",
            "uatom",
            ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidReceives")
  void recvDenom_invalid(
      String name, String sourceChannel, String destinationChannel, String denom, ErrorCode code) {
    RateLimitException e =
        assertThrows(
            RateLimitException.class,
            () ->
                DenomResolver.recvDenom(
                    "transfer", sourceChannel, "transfer", destinationChannel, denom));
    assertEquals(code, e.code());
  }

  @Test
  void recvDenom_sourceCaseStillNeedsABaseDenomInTheWholeTrace() {
    // SPEC §3: a denom whose base is empty is invalid, also when it comes back on the channel of
    // its first hop (ibc-go v8 would strip first and read transfer/channel-2 as a base denom)
    for (String denom :
        new String[] {"transfer/channel-1/transfer/channel-2", "transfer/channel-1/abc/xyz-5"}) {
      RateLimitException e =
          assertThrows(
              RateLimitException.class,
              () -> DenomResolver.recvDenom("transfer", "channel-1", "transfer", "channel-5", denom));
      assertEquals(ErrorCode.INVALID_PACKET_DATA, e.code());
    }
  }

  /**
   * The middleware's {@code recvLocalDenom} gives {@code recvDenom(...).localDenom()}, or the same
   * exception (type, code, message), on seeded denoms and channels: source and sink cases,
   * traces with and without a base denom, bad destination channels and ports.
   */
  @Test
  void recvLocalDenom_agreesWithRecvDenom() {
    String[] pool = {
      "transfer", "channel-0", "channel-1", "07-tendermint-3", "xyz-5", "uatom", "", " ", "a b",
      "channel-", "ibc", "gamm"
    };
    String[] channels = {"channel-0", "channel-1", "07-tendermint-3", "channelX", ""};
    String[] ports = {"transfer", "transfer", "xyz", "trans/fer"};
    Random random = new Random(0x10CA1L);
    int hashed = 0;
    for (int i = 0; i < 20_000; i++) {
      String denom = DenomTraceTest.randomPath(random, pool, 6);
      String[] ids = {
        ports[random.nextInt(ports.length)], channels[random.nextInt(channels.length)],
        ports[random.nextInt(ports.length)], channels[random.nextInt(channels.length)]
      };
      String expected = outcome(
          () -> DenomResolver.recvDenom(ids[0], ids[1], ids[2], ids[3], denom).localDenom());
      // twice: the second call finds the first one's result in the memo (errors: computed again)
      for (int call = 0; call < 2; call++) {
        String actual = outcome(
            () -> DenomResolver.recvLocalDenom(ids[0], ids[1], ids[2], ids[3], denom));
        assertEquals(expected, actual, String.join(" ", ids) + " " + denom);
      }
      hashed += expected.startsWith("ibc/") ? 1 : 0;
    }
    assertTrue(hashed > 5_000, "hashed: " + hashed);
  }

  private static String outcome(java.util.function.Supplier<String> localDenom) {
    try {
      return localDenom.get();
    } catch (RateLimitException e) {
      return "code " + e.code().code() + ": " + e.getMessage();
    } catch (IllegalArgumentException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  @Test
  void callerMistakes() {
    assertThrows(NullPointerException.class, () -> DenomResolver.sendDenom(null));
    assertThrows(NullPointerException.class, () -> DenomResolver.recvDenom(null, "uatom"));
    assertThrows(
        NullPointerException.class,
        () -> DenomResolver.recvDenom("transfer", "channel-1", "transfer", "channel-5", null));
    assertThrows(
        IllegalArgumentException.class,
        () -> DenomResolver.recvDenom("transfer", "channel-1", "trans/fer", "channel-5", "uatom"));
  }
}
