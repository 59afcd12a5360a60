package dev.ratelimit.cli.query;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import dev.ratelimit.core.query.RateLimitQueryServer;
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
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The {@code ratelimit.v1.Query} service's six methods, typed, over a {@link QuerySource}. */
public final class Queries {
  private final QuerySource source;

  public Queries(QuerySource source) {
    this.source = Objects.requireNonNull(source, "source");
  }

  public QueryAllRateLimitsResponse allRateLimits() {
    return ask("AllRateLimits", QueryAllRateLimitsRequest.getDefaultInstance(),
        QueryAllRateLimitsResponse.parser());
  }

  /** The limit of one path; a response without {@code rate_limit} when it has none. */
  public QueryRateLimitResponse rateLimit(String denom, String channelOrClientId) {
    return ask("RateLimit",
        QueryRateLimitRequest.newBuilder()
            .setDenom(denom)
            .setChannelOrClientId(channelOrClientId)
            .build(),
        QueryRateLimitResponse.parser());
  }

  public QueryRateLimitsByChainIdResponse rateLimitsByChainId(String chainId) {
    return ask("RateLimitsByChainId",
        QueryRateLimitsByChainIdRequest.newBuilder().setChainId(chainId).build(),
        QueryRateLimitsByChainIdResponse.parser());
  }

  public QueryRateLimitsByChannelOrClientIdResponse rateLimitsByChannelOrClientId(String id) {
    return ask("RateLimitsByChannelOrClientId",
        QueryRateLimitsByChannelOrClientIdRequest.newBuilder().setChannelOrClientId(id).build(),
        QueryRateLimitsByChannelOrClientIdResponse.parser());
  }

  public QueryAllBlacklistedDenomsResponse allBlacklistedDenoms() {
    return ask("AllBlacklistedDenoms", QueryAllBlacklistedDenomsRequest.getDefaultInstance(),
        QueryAllBlacklistedDenomsResponse.parser());
  }

  public QueryAllWhitelistedAddressesResponse allWhitelistedAddresses() {
    return ask("AllWhitelistedAddresses", QueryAllWhitelistedAddressesRequest.getDefaultInstance(),
        QueryAllWhitelistedAddressesResponse.parser());
  }

  private <R extends Message> R ask(String rpc, Message request, Parser<R> parser) {
    String path = "/" + RateLimitQueryServer.SERVICE + "/" + rpc;
    byte[] answer = source.query(path, request.toByteArray());
    R response;
    try {
      response = parser.parseFrom(answer);
    } catch (InvalidProtocolBufferException e) {
      throw new NodeException(source.name() + ", " + path + ": the answer is not a Query" + rpc
          + "Response: " + e.getMessage(), e);
    }
    requireKnownTypes(response, source.name() + ", " + path);
    return response;
  }

  /**
   * Refuses an answer in which a field this library knows came with another wire type (protobuf
   * keeps such a field aside as unknown, and the known one would read as empty): a node of an old
   * release (Stride's first, with numbers where amounts are now decimal strings) would otherwise
   * print zeros. Fields of numbers this library does not know are a newer release's: ignored.
   */
  static void requireKnownTypes(Message message, String where) {
    Descriptor type = message.getDescriptorForType();
    for (int number : message.getUnknownFields().asMap().keySet()) {
      FieldDescriptor known = type.findFieldByNumber(number);
      if (known != null) {
        throw new NodeException(where + ": field " + known.getName() + " of " + type.getName()
            + " has another type in the answer than in ratelimit.v1 (a node of another release"
            + " of the module?)");
      }
    }
    for (Map.Entry<FieldDescriptor, Object> field : message.getAllFields().entrySet()) {
      if (field.getKey().getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
        continue;
      }
      if (field.getKey().isRepeated()) {
        for (Object element : (List<?>) field.getValue()) {
          requireKnownTypes((Message) element, where);
        }
      } else {
        requireKnownTypes((Message) field.getValue(), where);
      }
    }
  }
}
