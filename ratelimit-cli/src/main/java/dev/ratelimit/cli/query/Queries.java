package dev.ratelimit.cli.query;

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
    byte[] answer =
        source.query("/" + RateLimitQueryServer.SERVICE + "/" + rpc, request.toByteArray());
    try {
      return parser.parseFrom(answer);
    } catch (InvalidProtocolBufferException e) {
      throw new NodeException(
          "the answer to " + rpc + " is not a Query" + rpc + "Response: " + e.getMessage(), e);
    }
  }
}
