package dev.ratelimit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The codes are a wire contract: they appear in error acknowledgements and events. */
class ErrorCodeTest {

  @Test
  void registry_isPinned() {
    List<String> expected =
        List.of(
            "ratelimit 1 1 rate limit already exists",
            "ratelimit 2 2 rate limit not found",
            "ratelimit 3 3 channel value is zero",
            "ratelimit 4 4 quota exceeded",
            "ratelimit 5 5 unable to determine client state from channel id",
            "ratelimit 6 6 channel does not exist",
            "ratelimit 7 7 denom is blacklisted",
            "ratelimit 8 8 invalid channel or client id",
            "ratelimit 9 9 invalid packet data",
            "ratelimit 10 10 invalid amount",
            "ratelimit 11 11 flow overflow",
            "ratelimit 12 12 invalid genesis",
            "ratelimit 13 13 hour epoch missing or invalid",
            "ratelimit 14 14 invalid acknowledgement",
            "sdk 4 unauthorized unauthorized",
            "sdk 7 invalid_address invalid address",
            "sdk 18 invalid_request invalid request");
    assertEquals(
        expected,
        Arrays.stream(ErrorCode.values())
            .map(c -> c.codespace().id() + " " + c.code() + " " + c.label() + " " + c.description())
            .toList());
  }

  @Test
  void ofRateLimitCode_findsOnlyTheRatelimitCodespace() {
    for (ErrorCode c : ErrorCode.values()) {
      if (c.codespace() == ErrorCode.Codespace.RATELIMIT) {
        assertSame(c, ErrorCode.ofRateLimitCode(c.code()));
      }
    }
    // 4 and 7 also number SDK classes: the ratelimit entry answers
    assertSame(ErrorCode.QUOTA_EXCEEDED, ErrorCode.ofRateLimitCode(4));
    assertSame(ErrorCode.DENOM_BLACKLISTED, ErrorCode.ofRateLimitCode(7));
    for (int missing : new int[] {0, 15, 18, -1}) {
      assertEquals("no ratelimit error code " + missing,
          assertThrows(IllegalArgumentException.class, () -> ErrorCode.ofRateLimitCode(missing))
              .getMessage());
    }
  }
}
