package dev.ratelimit.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.middleware.transfer.DenomResolver;
import dev.ratelimit.middleware.transfer.DenomTrace;
import dev.ratelimit.middleware.transfer.ReceivedDenom;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which denom a packet counts against (SPEC §3), by the resolver and by a reference written from
 * the spec's words (a split on {@code /}, the spec's regular expressions, SHA-256 by the JDK).
 * Each call is made twice, so a memoized answer must equal a computed one.
 */
class DenomFuzzTest {
  private static final Pattern CHANNEL = Pattern.compile("channel-([0-9]{1,20})");
  private static final Pattern CLIENT =
      Pattern.compile("[A-Za-z0-9_]+([A-Za-z0-9_-]+[A-Za-z0-9_])?-([0-9]{1,20})");
  private static final BigInteger MAX_UINT64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
  private static final String[] IDS = {"transfer", "channel-0", "channel-1", "channel-10", "07-tendermint-0", "09-localhost", "ibc", "port"};

  @FuzzTest(maxDuration = "5m")
  void sendAndRecvDenoms_agreeWithTheReference(FuzzedDataProvider in) {
    String sourcePort = id(in);
    String sourceChannel = id(in);
    String destinationPort = id(in);
    String destinationChannel = id(in);
    String denom = in.consumeRemainingAsString();

    for (int round = 0; round < 2; round++) {
      assertEquals(expectedSend(denom), Expected.valueOrCode(() -> DenomResolver.sendDenom(denom)),
          "send");

      if (destinationPort.contains("/") && !isSourceCase(denom, sourcePort, sourceChannel)
          && base(denom) != null && isHop(destinationChannel)) {
        // a packet's ports never hold '/' (ICS-24); the resolver refuses such an argument
        assertThrows(IllegalArgumentException.class, () -> DenomResolver.recvDenom(sourcePort, sourceChannel, destinationPort, destinationChannel, denom));
        continue;
      }
      Object expectedRecv = expectedRecv(denom, sourcePort, sourceChannel, destinationPort, destinationChannel);
      Object actualRecv = Expected.valueOrCode(() -> {
        ReceivedDenom received = DenomResolver.recvDenom(sourcePort, sourceChannel, destinationPort, destinationChannel, denom);
        assertEquals(received.localDenom(), received.trace().ibcDenom());
        assertEquals(isSourceCase(denom, sourcePort, sourceChannel), received.source());
        return received.localDenom();
      });
      assertEquals(expectedRecv, actualRecv, "recv");
    }
  }

  /** A short id, mostly from a few real ones so that source cases and valid hops are common. */
  private static String id(FuzzedDataProvider in) {
    return in.consumeBoolean() ? IDS[in.consumeInt(0, IDS.length - 1)] : in.consumeString(24);
  }

  /** SPEC §3, like ibc-go's ParseDenomFromSendPacket: an {@code ibc/} denom is taken as is. */
  static Object expectedSend(String denom) {
    if (Expected.goBlank(denom)) {
      return ErrorCode.INVALID_PACKET_DATA;
    }
    if (denom.startsWith("ibc/")) {
      return denom;
    }
    String base = base(denom);
    if (base == null) {
      return ErrorCode.INVALID_PACKET_DATA;
    }
    return base.equals(denom) ? denom : ibcHash(denom);
  }

  static Object expectedRecv(String denom, String sourcePort, String sourceChannel, String destinationPort, String destinationChannel) {
    if (base(denom) == null) {
      return ErrorCode.INVALID_PACKET_DATA;
    }
    if (isSourceCase(denom, sourcePort, sourceChannel)) {
      String rest = denom.substring(sourcePort.length() + sourceChannel.length() + 2);
      String base = base(rest);
      if (base == null) {
        return ErrorCode.INVALID_PACKET_DATA;
      }
      return base.equals(rest) ? rest : ibcHash(rest);
    }
    if (!isHop(destinationChannel)) {
      return ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID;
    }
    return ibcHash(destinationPort + "/" + destinationChannel + "/" + denom);
  }

  /**
   * {@link #expectedRecv} for a packet the middleware received: a destination port with '/' is
   * refused (code 9) where the denom would be prefixed with it, since no real port holds '/'
   * (ICS-24).
   */
  static Object expectedRecvInPacket(String denom, String sourcePort, String sourceChannel,
      String destinationPort, String destinationChannel) {
    if (destinationPort.contains("/") && !isSourceCase(denom, sourcePort, sourceChannel)
        && base(denom) != null) {
      return ErrorCode.INVALID_PACKET_DATA;
    }
    return expectedRecv(denom, sourcePort, sourceChannel, destinationPort, destinationChannel);
  }

  static boolean isSourceCase(String denom, String sourcePort, String sourceChannel) {
    return denom.startsWith(sourcePort + "/" + sourceChannel + "/");
  }

  /** ibc-go's ExtractDenomFromPath: the base denom, or null when it is blank. */
  static String base(String fullPath) {
    String[] parts = fullPath.split("/", -1);
    String base = "";
    if (parts.length == 1) {
      base = fullPath;
    } else {
      for (int i = 0; i < parts.length; i += 2) {
        if (i < parts.length - 1 && parts.length > 2 && isHop(parts[i + 1])) {
          continue;
        }
        base = String.join("/", Arrays.copyOfRange(parts, i, parts.length));
        break;
      }
    }
    return Expected.goBlank(base) ? null : base;
  }

  static boolean isHop(String id) {
    var channel = CHANNEL.matcher(id);
    if (channel.matches()) {
      return new BigInteger(channel.group(1)).compareTo(MAX_UINT64) <= 0;
    }
    if (id.equals("09-localhost")) {
      return true;
    }
    var client = CLIENT.matcher(id);
    return client.matches() && new BigInteger(client.group(2)).compareTo(MAX_UINT64) <= 0;
  }

  static String ibcHash(String path) {
    return "ibc/" + HexFormat.of().formatHex(Expected.sha256(path)).toUpperCase(Locale.ROOT);
  }

  @FuzzTest(maxDuration = "5m")
  void traceParse_agreesWithTheReference(FuzzedDataProvider in) {
    String path = in.consumeRemainingAsString();
    String base = base(path);
    try {
      DenomTrace trace = DenomTrace.parse(path);
      assertEquals(base, trace.baseDenom());
      assertEquals(path, trace.fullPath());
      assertEquals(base.equals(path) ? path : ibcHash(path), trace.ibcDenom());
    } catch (RateLimitException e) {
      assertEquals(ErrorCode.INVALID_PACKET_DATA, e.code());
      assertEquals(null, base);
    }
  }
}
