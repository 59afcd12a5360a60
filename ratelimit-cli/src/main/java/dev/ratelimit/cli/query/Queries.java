package dev.ratelimit.cli.query;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import dev.ratelimit.core.model.Texts;
import dev.ratelimit.core.query.RateLimitQueryServer;
import dev.ratelimit.proto.v1.Path;
import dev.ratelimit.proto.v1.QueryAllBlacklistedDenomsRequest;
import dev.ratelimit.proto.v1.QueryAllBlacklistedDenomsResponse;
import dev.ratelimit.proto.v1.QueryAllRateLimitsRequest;
import dev.ratelimit.proto.v1.QueryAllRateLimitsResponse;
import dev.ratelimit.proto.v1.QueryAllWhitelistedAddressesRequest;
import dev.ratelimit.proto.v1.QueryAllWhitelistedAddressesResponse;
import dev.ratelimit.proto.v1.QueryRateLimitRequest;
import dev.ratelimit.proto.v1.QueryRateLimitResponse;
import dev.ratelimit.proto.v1.QueryRateLimitsByChainIdRequest;
import dev.ratelimit.proto.v1.QueryRateLimitsByChainIdResponse;
import dev.ratelimit.proto.v1.QueryRateLimitsByChannelOrClientIdRequest;
import dev.ratelimit.proto.v1.QueryRateLimitsByChannelOrClientIdResponse;
import dev.ratelimit.proto.v1.RateLimit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/** The {@code ratelimit.v1.Query} service's six methods, typed, over a {@link QuerySource}. */
public final class Queries {
  private final QuerySource source;

  public Queries(QuerySource source) {
    this.source = Objects.requireNonNull(source, "source");
  }

  public QueryAllRateLimitsResponse allRateLimits() {
    return ask("AllRateLimits", QueryAllRateLimitsRequest.getDefaultInstance(),
        QueryAllRateLimitsResponse.parser(), (r, where) -> requireWhole(r.getRateLimitsList(), where));
  }

  /**
   * The limit of one path; a response without {@code rate_limit} when it has none. A limit of
   * another path than the one asked is refused.
   */
  public QueryRateLimitResponse rateLimit(String denom, String channelOrClientId) {
    return ask("RateLimit",
        QueryRateLimitRequest.newBuilder()
            .setDenom(denom)
            .setChannelOrClientId(channelOrClientId)
            .build(),
        QueryRateLimitResponse.parser(),
        (r, where) -> {
          if (!r.hasRateLimit()) {
            return;
          }
          requireWhole(List.of(r.getRateLimit()), where);
          Path p = r.getRateLimit().getPath();
          if (!p.getDenom().equals(denom) || !p.getChannelOrClientId().equals(channelOrClientId)) {
            throw new NodeException(where + ": the answer is the limit of another path ("
                + quoted(p.getChannelOrClientId()) + ", " + quoted(p.getDenom())
                + ") than the one asked");
          }
        });
  }

  public QueryRateLimitsByChainIdResponse rateLimitsByChainId(String chainId) {
    return ask("RateLimitsByChainId",
        QueryRateLimitsByChainIdRequest.newBuilder().setChainId(chainId).build(),
        QueryRateLimitsByChainIdResponse.parser(),
        (r, where) -> requireWhole(r.getRateLimitsList(), where));
  }

  public QueryRateLimitsByChannelOrClientIdResponse rateLimitsByChannelOrClientId(String id) {
    return ask("RateLimitsByChannelOrClientId",
        QueryRateLimitsByChannelOrClientIdRequest.newBuilder().setChannelOrClientId(id).build(),
        QueryRateLimitsByChannelOrClientIdResponse.parser(),
        (r, where) -> requireWhole(r.getRateLimitsList(), where));
  }

  private static String quoted(String text) {
    return Texts.quote(text, 64, TerminalText::unsafe);
  }

  /**
   * Every limit of an answer has its path (a denom and an id), quota and flow: a record without
   * one would print as an empty row, or as JSON without the field (README: refused, not printed
   * as empty records).
   */
  private static void requireWhole(List<RateLimit> limits, String where) {
    for (RateLimit rl : limits) {
      String lacks = !rl.hasPath() ? "path"
          : rl.getPath().getDenom().isEmpty() ? "denom"
          : rl.getPath().getChannelOrClientId().isEmpty() ? "channel_or_client_id"
          : !rl.hasQuota() ? "quota"
          : !rl.hasFlow() ? "flow"
          : null;
      if (lacks != null) {
        throw new NodeException(where + ": a rate limit in the answer has no " + lacks
            + " (a node of another release of the module?)");
      }
    }
  }

  public QueryAllBlacklistedDenomsResponse allBlacklistedDenoms() {
    return ask("AllBlacklistedDenoms", QueryAllBlacklistedDenomsRequest.getDefaultInstance(),
        QueryAllBlacklistedDenomsResponse.parser(), (r, where) -> { });
  }

  public QueryAllWhitelistedAddressesResponse allWhitelistedAddresses() {
    return ask("AllWhitelistedAddresses", QueryAllWhitelistedAddressesRequest.getDefaultInstance(),
        QueryAllWhitelistedAddressesResponse.parser(), (r, where) -> { });
  }

  /**
   * Asks, reads the response and checks it: its shape, then {@code check} (given the response and
   * where it came from, the source and the path that answered, for its messages).
   */
  private <R extends Message> R ask(
      String rpc, Message request, Parser<R> parser, BiConsumer<R, String> check) {
    QuerySource.Answer answer =
        source.answer("/" + RateLimitQueryServer.SERVICE + "/" + rpc, request.toByteArray());
    String where = source.name() + ", " + answer.path();
    R response;
    try {
      response = parser.parseFrom(answer.value());
    } catch (InvalidProtocolBufferException e) {
      throw new NodeException(
          where + ": the answer is not a Query" + rpc + "Response: " + e.getMessage(), e);
    }
    requireKnownShape(response, where, true);
    check.accept(response, where);
    return response;
  }

  /**
   * Refuses an answer that does not have this library's shape, where protobuf would read it
   * without complaint: a known field that came with another wire type (kept aside as unknown, so
   * the known one reads as empty: Stride's first releases sent amounts as numbers where they are
   * decimal strings now), and any field of a number the record types ({@code RateLimit}, {@code
   * Path}, {@code Quota}, {@code Flow}, {@code WhitelistedAddressPair}) do not have, which would
   * print as an empty record. A response message may have fields of a newer release (pagination,
   * say): those are ignored. Not caught: a value of the right wire type but another meaning.
   */
  static void requireKnownShape(Message message, String where, boolean response) {
    Descriptor type = message.getDescriptorForType();
    for (int number : message.getUnknownFields().asMap().keySet()) {
      FieldDescriptor known = type.findFieldByNumber(number);
      if (known != null) {
        throw new NodeException(where + ": field " + known.getName() + " of " + type.getName()
            + " has another wire type in the answer than in this library's messages (a node of"
            + " another release of the module?)");
      }
      if (!response) {
        throw new NodeException(where + ": " + type.getName() + " in the answer has a field "
            + number + " this library's messages do not have (a node of another release of the"
            + " module?)");
      }
    }
    for (Map.Entry<FieldDescriptor, Object> field : message.getAllFields().entrySet()) {
      if (field.getKey().getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
        continue;
      }
      if (field.getKey().isRepeated()) {
        for (Object element : (List<?>) field.getValue()) {
          requireKnownShape((Message) element, where, false);
        }
      } else {
        requireKnownShape((Message) field.getValue(), where, false);
      }
    }
  }
}
