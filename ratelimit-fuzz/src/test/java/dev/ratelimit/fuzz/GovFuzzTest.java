package dev.ratelimit.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.testing.TestChain;
import dev.ratelimit.gov.AddressCodec;
import dev.ratelimit.gov.MsgRouter;
import dev.ratelimit.gov.ProposalHandler;
import dev.ratelimit.gov.RateLimitMsgHandler;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import dev.ratelimit.proto.v1.MsgRemoveRateLimit;
import dev.ratelimit.proto.v1.MsgResetRateLimit;
import dev.ratelimit.proto.v1.MsgUpdateRateLimit;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Governance proposals (SPEC §7) of one to three messages, well-formed or not, executed by the
 * proposal handler and by a model written from the spec: the rule order of a message's checks,
 * the stateful errors of add, update, remove and reset, all or nothing. The outcome (the first
 * failure's code, or success) and the rate limits after it must agree; a refused proposal leaves
 * the store as it was, byte for byte.
 */
class GovFuzzTest {
  private static final String AUTHORITY = "gov-authority";
  private static final Instant TIME = Instant.parse("2024-03-01T10:20:30Z");
  private static final List<String> TYPES = List.copyOf(MsgRouter.supportedTypeUrls());
  private static final String[] DENOMS = {"ustrd", "uzero", "unosupply", ""};
  private static final String[] IDS = {"channel-0", "channel-1", "channel-9", "07-tendermint-3", "channel-"};
  private static final String[] PERCENTS = {"0", "1", "10", "100", "101", "", "010", "-1", "+5", " 5", "1000"};
  /** SPEC §8's canonical order: channel, then denom, by unsigned UTF-8 bytes. */
  private static final Comparator<Path> CANONICAL =
      Comparator.comparing(
              (Path p) -> p.channelOrClientId().getBytes(StandardCharsets.UTF_8),
              Arrays::compareUnsigned)
          .thenComparing(p -> p.denom().getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned);
  private static final Map<String, BigInteger> SUPPLY =
      Map.of("ustrd", BigInteger.valueOf(1_000_000), "uzero", BigInteger.ZERO);

  @FuzzTest(maxDuration = "5m")
  void proposals_agreeWithTheModel(FuzzedDataProvider in) {
    try (TestChain chain = TestChain.inMemory(TIME)) {
      chain.initGenesis(dev.ratelimit.core.genesis.Genesis.empty());
      chain.channels().add("channel-0", "chain-a").add("channel-1", "chain-b").add("07-tendermint-3", "chain-c");
      SUPPLY.forEach(chain.bank()::set);
      java.util.SortedMap<Path, RateLimit> model = new TreeMap<>(CANONICAL);
      RateLimit existing = chain.keeper().addRateLimit(chain.ctx(), new Path("ustrd", "channel-1"), new Quota(10, 20, 24));
      model.put(existing.path(), existing);
      ProposalHandler proposals = new ProposalHandler(new MsgRouter(new RateLimitMsgHandler(chain.keeper(), AUTHORITY, AddressCodec.nonBlank())));

      int n = in.consumeInt(1, 3);
      List<Any> msgs = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        msgs.add(message(in));
      }
      java.util.SortedMap<Path, RateLimit> after = new TreeMap<>(model);
      ErrorCode expected = null;
      for (Any msg : msgs) {
        expected = apply(after, msg);
        if (expected != null) {
          break;
        }
      }

      String before = chain.digest();
      try {
        proposals.execute(chain.ctx(), msgs);
        assertEquals(null, expected, "the proposal passed");
      } catch (RateLimitException e) {
        Expected.assertReason(e);
        assertEquals(expected, e.code(), e::getMessage);
        assertEquals(before, chain.digest(), "a refused proposal wrote");
        after = model;
      }
      assertEquals(List.copyOf(after.values()), chain.keeper().getAllRateLimits(chain.ctx()));
    }
  }

  private static Any message(FuzzedDataProvider in) {
    String type = in.consumeInt(0, 15) == 0 ? in.consumeString(40) : TYPES.get(in.consumeInt(0, TYPES.size() - 1));
    byte[] value;
    if (in.consumeInt(0, 9) == 0) {
      value = in.consumeBytes(in.consumeInt(0, 64));
    } else {
      MsgAddRateLimit.Builder m = MsgAddRateLimit.newBuilder()
          .setAuthority(pick(in, new String[] {AUTHORITY, AUTHORITY, AUTHORITY, " ", "", "someone"}))
          .setDenom(pick(in, DENOMS))
          .setChannelOrClientId(pick(in, IDS));
      if (!type.endsWith("RemoveRateLimit") && !type.endsWith("ResetRateLimit")) {
        m.setMaxPercentSend(pick(in, PERCENTS))
            .setMaxPercentRecv(pick(in, PERCENTS))
            .setDurationHours(in.consumeBoolean() ? in.consumeLong(0, 48) : in.consumeLong());
      }
      value = m.build().toByteArray(); // remove and reset share fields 1-3 with add
      if (in.consumeInt(0, 7) == 0) {
        ByteString tail = ByteString.copyFrom(in.consumeBytes(in.consumeInt(0, 16)));
        value = ByteString.copyFrom(value).concat(tail).toByteArray();
      }
    }
    return Any.newBuilder().setTypeUrl(type).setValue(ByteString.copyFrom(value)).build();
  }

  /** One message by SPEC §7 on the model: the error code, or null and the model updated. */
  private static ErrorCode apply(Map<Path, RateLimit> model, Any msg) {
    String type = msg.getTypeUrl();
    if (!TYPES.contains(type)) {
      return ErrorCode.INVALID_REQUEST;
    }
    boolean withQuota = type.endsWith("AddRateLimit") || type.endsWith("UpdateRateLimit");
    Fields m;
    try {
      m = Fields.parse(type, msg.getValue());
    } catch (InvalidProtocolBufferException e) {
      return ErrorCode.INVALID_REQUEST;
    }
    // a field the message does not declare, but for the SDK's non-critical ones (bit 11 set)
    if (m.unknownFields().stream().anyMatch(f -> (f & 1024) == 0)) {
      return ErrorCode.INVALID_REQUEST;
    }
    if (Expected.goBlank(m.authority())) {
      return ErrorCode.INVALID_ADDRESS;
    }
    if (m.denom().isEmpty() || !DenomFuzzTest.isHop(m.id())) {
      return ErrorCode.INVALID_REQUEST;
    }
    int send = -1;
    int recv = -1;
    if (withQuota) {
      send = percent(m.send());
      recv = percent(m.recv());
      if (send < 0 || recv < 0 || (send == 0 && recv == 0) || m.hours() == 0) {
        return ErrorCode.INVALID_REQUEST;
      }
    }
    if (!m.authority().equals(AUTHORITY)) {
      return ErrorCode.UNAUTHORIZED;
    }
    Path path = new Path(m.denom(), m.id());
    BigInteger supply = SUPPLY.getOrDefault(m.denom(), BigInteger.ZERO);
    RateLimit old = model.get(path);
    if (type.endsWith("AddRateLimit")) {
      if (supply.signum() == 0) {
        return ErrorCode.ZERO_CHANNEL_VALUE;
      }
      if (old != null) {
        return ErrorCode.RATE_LIMIT_ALREADY_EXISTS;
      }
      if (!List.of("channel-0", "channel-1", "07-tendermint-3").contains(path.channelOrClientId())) {
        return ErrorCode.CHANNEL_NOT_FOUND;
      }
      model.put(path, new RateLimit(path, new Quota(send, recv, m.hours()), new Flow(BigInteger.ZERO, BigInteger.ZERO, supply)));
      return null;
    }
    if (old == null) {
      return ErrorCode.RATE_LIMIT_NOT_FOUND;
    }
    if (type.endsWith("RemoveRateLimit")) {
      model.remove(path);
      return null;
    }
    // update and reset: a fresh window; a zero supply keeps the old channel value (SPEC §4)
    BigInteger value = supply.signum() == 0 ? old.flow().channelValue() : supply;
    Quota quota = withQuota ? new Quota(send, recv, m.hours()) : old.quota();
    model.put(path, new RateLimit(path, quota, new Flow(BigInteger.ZERO, BigInteger.ZERO, value)));
    return null;
  }

  /** A message's fields, decoded by its own class (G's messages have A's field numbers). */
  private record Fields(
      String authority, String denom, String id, String send, String recv, long hours, java.util.Set<Integer> unknownFields) {
    static Fields parse(String type, ByteString value) throws InvalidProtocolBufferException {
      if (type.endsWith("AddRateLimit")) {
        var m = MsgAddRateLimit.parseFrom(value);
        return new Fields(m.getAuthority(), m.getDenom(), m.getChannelOrClientId(), m.getMaxPercentSend(), m.getMaxPercentRecv(), m.getDurationHours(), m.getUnknownFields().asMap().keySet());
      }
      if (type.endsWith("UpdateRateLimit")) {
        var m = MsgUpdateRateLimit.parseFrom(value);
        return new Fields(m.getAuthority(), m.getDenom(), m.getChannelOrClientId(), m.getMaxPercentSend(), m.getMaxPercentRecv(), m.getDurationHours(), m.getUnknownFields().asMap().keySet());
      }
      if (type.endsWith("RemoveRateLimit")) {
        var m = MsgRemoveRateLimit.parseFrom(value);
        return new Fields(m.getAuthority(), m.getDenom(), m.getChannelOrClientId(), null, null, 0, m.getUnknownFields().asMap().keySet());
      }
      var m = MsgResetRateLimit.parseFrom(value);
      return new Fields(m.getAuthority(), m.getDenom(), m.getChannelOrClientId(), null, null, 0, m.getUnknownFields().asMap().keySet());
    }
  }

  private static int percent(String text) {
    return text.matches("0|[1-9][0-9]{0,2}") && Integer.parseInt(text) <= 100 ? Integer.parseInt(text) : -1;
  }

  private static String pick(FuzzedDataProvider in, String[] choices) {
    return in.consumeInt(0, 7) == 0 ? in.consumeString(12) : choices[in.consumeInt(0, choices.length - 1)];
  }
}
