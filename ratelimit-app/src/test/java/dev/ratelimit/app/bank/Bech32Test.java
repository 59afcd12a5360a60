package dev.ratelimit.app.bank;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** BIP-173's test vectors: the valid strings whose data is whole bytes, and the invalid ones. */
class Bech32Test {

  @ParameterizedTest(name = "{2}")
  @CsvSource({
    "a, '', a12uel5l",
    "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio, '',"
        + " an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
    "abcdef, 00443214c74254b635cf84653a56d7c675be77df, abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
    "1, 000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000,"
        + " 11qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqc8247j",
    "split, c5f38b70305f519bf66d85fb6cf03058f3dde463ecd7918f2dc743918f2d,"
        + " split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
    "?, '', ?1ezyfcl",
  })
  void validVectors_encodeAndDecode(String hrp, String dataHex, String text) {
    byte[] data = HexFormat.of().parseHex(dataHex);
    assertEquals(text, Bech32.encode(hrp, data));
    Bech32.Decoded decoded = Bech32.decode(text);
    assertEquals(hrp, decoded.hrp());
    assertArrayEquals(data, decoded.data());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "' 1nwldj5' | invalid character in bech32 prefix", // BIP-173: HRP character out of range
        "\u007f1axkwrx | invalid character in bech32 prefix",
        "\u00801eym55h | invalid character in bech32 prefix",
        "an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx"
            + " | bech32 length must be in [8, 90], got 91",
        "pzry9x0s0muk | bech32 separator '1' missing or misplaced",
        "1pzry9x0s0muk | bech32 separator '1' missing or misplaced", // empty HRP
        "x1b4n0q5v | invalid bech32 character \"b\"",
        "li1dgmt3 | bech32 separator '1' missing or misplaced", // checksum too short
        "de1lg7wt\u00ff | invalid bech32 character \"\u00ff\"",
        "A1G7SGD8 | bech32 address must be lower case", // we read lower case only, as the SDK prints
        "10a06t8 | bech32 length must be in [8, 90], got 7",
        "1qzzfhee | bech32 separator '1' missing or misplaced",
        "a12uel5m | invalid bech32 checksum", // not BIP-173's: a valid string's last character changed
      })
  void invalidVectors_areRefusedSayingWhy(String text, String message) {
    assertEquals(message, refusal(text));
  }

  private static String refusal(String text) {
    return assertThrows(IllegalArgumentException.class, () -> Bech32.decode(text)).getMessage();
  }

  /** A prefix takes every printable ASCII character, '!' (33) to '~' (126). */
  @Test
  void prefix_takesPrintableAsciiFromBangToTilde() {
    byte[] data = {1, 2, 3};
    for (String hrp : List.of("!", "~", "!~")) {
      Bech32.Decoded decoded = Bech32.decode(Bech32.encode(hrp, data));
      assertEquals(hrp, decoded.hrp());
      assertArrayEquals(data, decoded.data());
    }
  }

  /** A character is shown quoted and escaped: the message goes into a durable event. */
  @Test
  void invalidCharacter_isEscapedInTheMessage() {
    assertEquals("invalid bech32 character \"\\u000a\"", refusal("de1lg7\nwt"));
    assertEquals("invalid bech32 character \"\\udc00\"", refusal("de1lg7\udc00wt"));
  }
}
