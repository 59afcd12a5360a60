package dev.ratelimit.middleware.ibc.v2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The IBC v2 value types a host builds and compares (hosts key maps and mocks by them): content
 * equality over their byte arrays, copies in and out, and what {@code toString} shows.
 */
class IbcV2ValuesTest {
  private static final byte[] VALUE = {1, 2, 3};

  private static Payload payload(byte[] value) {
    return new Payload("transfer", "transfer", "ics20-1", "application/json", value);
  }

  private static byte[] universalErrorSha256() throws NoSuchAlgorithmException {
    return MessageDigest.getInstance("SHA-256")
        .digest("UNIVERSAL_ERROR_ACKNOWLEDGEMENT".getBytes(StandardCharsets.US_ASCII));
  }

  // ---------------------------------------------------------------- Payload

  @Test
  void payload_equalityUsesEveryFieldAndTheValuesContent() {
    Payload a = payload(VALUE.clone());
    assertEquals(a, payload(VALUE.clone()));
    assertEquals(a.hashCode(), payload(VALUE.clone()).hashCode());
    assertNotEquals(a, payload(new byte[] {1, 2, 4}));
    assertNotEquals(a, new Payload("wasm.x", "transfer", "ics20-1", "application/json", VALUE));
    assertNotEquals(a, new Payload("transfer", "wasm.x", "ics20-1", "application/json", VALUE));
    assertNotEquals(a, new Payload("transfer", "transfer", "ics20-2", "application/json", VALUE));
    assertNotEquals(a, new Payload("transfer", "transfer", "ics20-1", "", VALUE));
    assertNotEquals(a, RecvPacketResult.success(VALUE));
  }

  @Test
  void payload_hashCodeCombinesTheFieldsAndTheValue() {
    Payload a = payload(VALUE);
    assertEquals(31 * Objects.hash("transfer", "transfer", "ics20-1", "application/json")
        + Arrays.hashCode(VALUE), a.hashCode());
  }

  @Test
  void payload_toStringShowsAtMost48BytesOfTheValue() {
    assertEquals("Payload[sourcePort=transfer, destinationPort=transfer, version=ics20-1,"
        + " encoding=application/json, value=(48 bytes) " + "A".repeat(64) + "]",
        payload(new byte[48]).toString());
    assertEquals("Payload[sourcePort=transfer, destinationPort=transfer, version=ics20-1,"
        + " encoding=application/json, value=(49 bytes) " + "A".repeat(64) + "...]",
        payload(new byte[49]).toString());
    assertEquals("Payload[sourcePort=transfer, destinationPort=transfer, version=ics20-1,"
        + " encoding=application/json, value=(3 bytes) AQID]", payload(VALUE).toString());
  }

  // ---------------------------------------------------------------- RecvPacketResult

  @Test
  void recvPacketResult_equalityUsesTheStatusAndTheAcknowledgementsContent() {
    RecvPacketResult a = RecvPacketResult.success(VALUE.clone());
    assertEquals(a, RecvPacketResult.success(VALUE.clone()));
    assertEquals(a.hashCode(), RecvPacketResult.success(VALUE.clone()).hashCode());
    assertEquals(31 * PacketStatus.SUCCESS.hashCode() + Arrays.hashCode(VALUE), a.hashCode());
    assertNotEquals(a, RecvPacketResult.failure(VALUE));
    assertNotEquals(a, RecvPacketResult.success(new byte[] {1, 2}));
    assertNotEquals(a, payload(VALUE));
    assertEquals(new RecvPacketResult(PacketStatus.ASYNC, new byte[0]), RecvPacketResult.async());
  }

  @Test
  void recvPacketResult_copiesItsAcknowledgementAndShowsItsSize() {
    byte[] in = VALUE.clone();
    RecvPacketResult r = RecvPacketResult.failure(in);
    in[0] = 9;
    r.acknowledgement()[1] = 9;
    assertArrayEquals(VALUE, r.acknowledgement());
    assertEquals("RecvPacketResult[status=FAILURE, acknowledgement=(3 bytes)]", r.toString());
  }

  // ---------------------------------------------------------------- Acknowledgement

  @Test
  void acknowledgement_universalErrorIsTheSha256OfItsName() throws NoSuchAlgorithmException {
    byte[] expected = universalErrorSha256();
    Acknowledgement universal = Acknowledgement.universalError();

    assertEquals(1, universal.appAcknowledgements().size());
    assertArrayEquals(expected, universal.appAcknowledgements().get(0));
    assertArrayEquals(expected, Acknowledgement.universalErrorBytes());
    assertTrue(Acknowledgement.isUniversalError(expected));
    assertFalse(universal.isSuccess());
    // callers get copies: changing one changes no later answer
    Acknowledgement.universalErrorBytes()[0] ^= 1;
    universal.appAcknowledgements().get(0)[0] ^= 1;
    assertArrayEquals(expected, Acknowledgement.universalErrorBytes());
    assertArrayEquals(
        expected, Acknowledgement.universalError().appAcknowledgement(0).orElseThrow());
  }

  @Test
  void acknowledgement_equalityComparesTheAppAcknowledgementsContentInOrder() {
    Acknowledgement a = new Acknowledgement(List.of(new byte[] {1}, new byte[] {2}));
    Acknowledgement same = new Acknowledgement(List.of(new byte[] {1}, new byte[] {2}));
    assertEquals(a, same);
    assertEquals(a.hashCode(), same.hashCode());
    assertEquals(31 * (31 + Arrays.hashCode(new byte[] {1})) + Arrays.hashCode(new byte[] {2}),
        a.hashCode());
    assertNotEquals(a, new Acknowledgement(List.of(new byte[] {2}, new byte[] {1})));
    assertNotEquals(a, new Acknowledgement(List.of(new byte[] {1}, new byte[] {3})));
    assertNotEquals(a, new Acknowledgement(List.of(new byte[] {1})));
    assertNotEquals(a, new Acknowledgement(List.of(new byte[] {1}, new byte[] {2}, new byte[0])));
    assertNotEquals(a, List.of(new byte[] {1}, new byte[] {2}));
  }

  @Test
  void acknowledgement_appAcknowledgementByIndexWithinTheListOnly() {
    Acknowledgement a = new Acknowledgement(List.of(new byte[] {1}, new byte[] {2}));
    assertArrayEquals(new byte[] {1}, a.appAcknowledgement(0).orElseThrow());
    assertArrayEquals(new byte[] {2}, a.appAcknowledgement(1).orElseThrow());
    assertEquals(Optional.empty(), a.appAcknowledgement(2));
    assertEquals(Optional.empty(), a.appAcknowledgement(-1));
    assertEquals(Optional.empty(), new Acknowledgement(List.of()).appAcknowledgement(0));
  }

  @Test
  void acknowledgement_copiesInAndOutAndShowsSizesOnly() {
    byte[] in = {1, 2};
    Acknowledgement a = new Acknowledgement(List.of(in, new byte[0]));
    in[0] = 9;
    a.appAcknowledgements().get(0)[1] = 9;
    a.appAcknowledgement(0).orElseThrow()[0] = 9;
    assertArrayEquals(new byte[] {1, 2}, a.appAcknowledgements().get(0));
    assertEquals(2, a.appAcknowledgements().size());
    assertEquals("Acknowledgement[appAcknowledgements=[(2 bytes), (0 bytes)]]", a.toString());
  }

  @Test
  void acknowledgement_isASuccessWithExactlyOneAppAcknowledgementThatIsNotTheUniversalError()
      throws NoSuchAlgorithmException {
    assertTrue(new Acknowledgement(List.of(new byte[] {1})).isSuccess());
    assertFalse(new Acknowledgement(List.of(universalErrorSha256())).isSuccess());
    assertFalse(new Acknowledgement(List.of()).isSuccess());
    assertFalse(new Acknowledgement(List.of(new byte[] {1}, new byte[] {2})).isSuccess());
  }
}
