package dev.ratelimit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class IbcDenomCommandTest {
  @Test
  void aTrace_printsTheVoucherDenom_theQueriesTake() {
    Cli r = Cli.run("ibc-denom", "transfer/channel-5/uosmo");
    assertEquals(0, r.exit(), r.toString());
    assertEquals(List.of(QueryCommandsTest.OSMO), r.outLines());
  }

  @Test
  void aDenomWithoutATrace_printsAsItIs() {
    assertEquals(List.of("uosmo"), Cli.run("ibc-denom", "uosmo").outLines());
    assertEquals(List.of(QueryCommandsTest.OSMO), Cli.run("ibc-denom", QueryCommandsTest.OSMO).outLines());
    // a native denom that reads as a trace (pool-1 is a client id) is hashed, as a send counts it
    assertEquals(List.of("ibc/98BB65AE2184BB721DD0A19C9471581BC9A309CB15ECED1D3B392CE8FDDD41FD"),
        Cli.run("ibc-denom", "lp/pool-1/share").outLines());
  }

  @Test
  void aTraceWithSpaceAround_isHashedAsGiven_withAWarning() {
    Cli r = Cli.run("ibc-denom", " transfer/channel-5/uosmo");
    assertEquals(0, r.exit(), r.toString());
    assertEquals(List.of("ibc/" + java.util.HexFormat.of().withUpperCase().formatHex(sha256(
        " transfer/channel-5/uosmo"))), r.outLines());
    assertEquals(List.of("ratelimit: warning: TRACE \" transfer/channel-5/uosmo\" starts or ends"
        + " with white space, hashed as given; no denom has any"), r.errLines());
    assertEquals("", Cli.run("ibc-denom", "transfer/channel-5/uosmo").err());
  }

  private static byte[] sha256(String s) {
    try {
      return java.security.MessageDigest.getInstance("SHA-256")
          .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aTraceWithoutABaseDenom_isCode9_exit2() {
    Cli r = Cli.run("ibc-denom", "transfer/channel-1/");
    assertEquals(2, r.exit());
    assertEquals("", r.out());
    assertEquals(List.of("ratelimit: invalid packet data: denom \"transfer/channel-1/\" has an empty"
        + " or blank base denom (code 9)"), r.errLines());
  }
}
