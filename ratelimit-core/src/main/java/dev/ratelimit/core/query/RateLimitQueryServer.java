package dev.ratelimit.core.query;

import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.genesis.GenesisCodec;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.model.Texts;
import dev.ratelimit.proto.v1.QueryAllBlacklistedDenomsRequest;
import dev.ratelimit.proto.v1.QueryAllBlacklistedDenomsResponse;
import dev.ratelimit.proto.v1.QueryAllRateLimitsRequest;
import dev.ratelimit.proto.v1.QueryAllRateLimitsResponse;
import dev.ratelimit.proto.v1.QueryAllWhitelistedAddressesRequest;
import dev.ratelimit.proto.v1.QueryAllWhitelistedAddressesResponse;
import dev.ratelimit.proto.v1.QueryOuterClass;
import dev.ratelimit.proto.v1.QueryRateLimitRequest;
import dev.ratelimit.proto.v1.QueryRateLimitResponse;
import dev.ratelimit.proto.v1.QueryRateLimitsByChainIdRequest;
import dev.ratelimit.proto.v1.QueryRateLimitsByChainIdResponse;
import dev.ratelimit.proto.v1.QueryRateLimitsByChannelOrClientIdRequest;
import dev.ratelimit.proto.v1.QueryRateLimitsByChannelOrClientIdResponse;
import java.util.List;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * The {@code ratelimit.v1.Query} service over the keeper, without a transport: one typed method
 * per RPC, and {@link #query} for a host that routes ABCI queries by gRPC method name ({@code
 * /ratelimit.v1.Query/AllRateLimits}) with protobuf bytes in and out, as a Cosmos SDK chain
 * serves {@code abci_query}. A gRPC server, if the host runs one, calls the typed methods.
 *
 * <p>Answers as the Go module's query server does, except: an invalid channel or client id is
 * code 8 and ids whose chain cannot be resolved are skipped by {@code RateLimitsByChainId} (SPEC
 * §7); an empty denom in {@code RateLimit} and a blank chain id are {@code invalid_request} (Go
 * answers an empty response: no limit can have either, and "none" would hide the caller's
 * mistake); a store without the module's hour epoch is code 13 (below). {@code RateLimit} of a
 * path without a limit answers an empty response (no {@code rate_limit}), as in Go. Remaining
 * capacity has no message on the wire: it is {@link RateLimitKeeper#remainingCapacity}.
 *
 * <p>Queries read through a {@link BlockContext} like everything else: outside a block, give it
 * the chain's committed store (the whole store, as blocks get it: the keeper adds its prefix) and
 * the last block's height and time. Nothing is written. A store without the module's hour epoch
 * (InitGenesis never ran on it, or it is not the store the keeper was built for, such as a view
 * already under the prefix) is code 13 for every query, never answered as a chain without limits.
 */
public final class RateLimitQueryServer {
  /** The service's full name, as in {@code query.proto}. */
  public static final String SERVICE = "ratelimit.v1.Query";

  private final RateLimitKeeper keeper;
  private final Map<String, Route<?>> routes;

  public RateLimitQueryServer(RateLimitKeeper keeper) {
    this.keeper = Objects.requireNonNull(keeper, "keeper");
    Map<String, Route<?>> r = new TreeMap<>(); // sorted: errors list the paths in a stable order
    add(r, "AllRateLimits", QueryAllRateLimitsRequest.parser(), this::allRateLimits);
    add(r, "RateLimit", QueryRateLimitRequest.parser(), this::rateLimit);
    add(r, "RateLimitsByChainId", QueryRateLimitsByChainIdRequest.parser(),
        this::rateLimitsByChainId);
    add(r, "RateLimitsByChannelOrClientId", QueryRateLimitsByChannelOrClientIdRequest.parser(),
        this::rateLimitsByChannelOrClientId);
    add(r, "AllBlacklistedDenoms", QueryAllBlacklistedDenomsRequest.parser(),
        this::allBlacklistedDenoms);
    add(r, "AllWhitelistedAddresses", QueryAllWhitelistedAddressesRequest.parser(),
        this::allWhitelistedAddresses);
    if (!r.keySet().equals(pathsOfTheService())) { // a method added to query.proto, not here
      throw new IllegalStateException("routes " + r.keySet() + " are not query.proto's methods");
    }
    this.routes = Collections.unmodifiableMap(r);
  }

  /** The method paths {@link #query} answers, sorted: {@code /ratelimit.v1.Query/<Rpc>}. */
  public List<String> paths() {
    return List.copyOf(routes.keySet());
  }

  /**
   * Answers one query by its gRPC method path: decodes the request, runs the typed method and
   * encodes its response.
   *
   * @throws RateLimitException {@link ErrorCode#INVALID_REQUEST} for an unknown path (the message
   *     lists the known ones) or request bytes that do not parse as the method's request message
   *     (protobuf cannot tell apart messages whose fields agree: another request's bytes may
   *     parse); the typed method's errors otherwise
   */
  public byte[] query(BlockContext ctx, String path, byte[] request) {
    Objects.requireNonNull(ctx, "ctx");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(request, "request");
    Route<?> route = routes.get(path);
    if (route == null) {
      throw new RateLimitException(ErrorCode.INVALID_REQUEST,
          "unknown query path " + Texts.quote(path) + "; known: " + String.join(", ", paths()));
    }
    return route.answer(ctx, request).toByteArray();
  }

  /**
   * What a host answers CometBFT's {@code abci_query} with: the fields of its {@code
   * ResponseQuery}. A success is code 0 with the response bytes as the value; a module error is
   * its code, its codespace ({@code ratelimit}, or {@code sdk} for {@code invalid_request}) and its
   * message as the log, with no value, as a Cosmos SDK chain answers. {@code ratelimit ... --node}
   * reads exactly these.
   *
   * @param value the encoded response; empty on an error (compared by content in {@link #equals})
   */
  public record AbciAnswer(int code, String codespace, String log, byte[] value) {
    public AbciAnswer {
      Objects.requireNonNull(codespace, "codespace");
      Objects.requireNonNull(log, "log");
      value = Objects.requireNonNull(value, "value").clone();
      if (code < 0) {
        throw new IllegalArgumentException("code must not be negative: " + code);
      }
    }

    @Override
    public byte[] value() {
      return value.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof AbciAnswer a && code == a.code && codespace.equals(a.codespace)
          && log.equals(a.log) && java.util.Arrays.equals(value, a.value);
    }

    @Override
    public int hashCode() {
      return Objects.hash(code, codespace, log, java.util.Arrays.hashCode(value));
    }

    @Override
    public String toString() {
      return "AbciAnswer[code=" + code + ", codespace=" + codespace + ", log=" + log + ", value="
          + value.length + " bytes]";
    }
  }

  /**
   * {@link #query} as an ABCI answer: a {@link RateLimitException} becomes the answer's code,
   * codespace and log instead of being thrown. Anything else (a storage failure, a bug) is still
   * thrown, for the host to answer as its own failure.
   */
  public AbciAnswer abciQuery(BlockContext ctx, String path, byte[] request) {
    try {
      return new AbciAnswer(0, "", "", query(ctx, path, request));
    } catch (RateLimitException e) {
      return new AbciAnswer(
          e.code().code(), e.code().codespace().id(), e.getMessage(), new byte[0]);
    }
  }

  /** Every rate limit, in canonical order (channel or client id, then denom). */
  public QueryAllRateLimitsResponse allRateLimits(BlockContext ctx, QueryAllRateLimitsRequest req) {
    requireInitialized(ctx, req);
    return QueryAllRateLimitsResponse.newBuilder()
        .addAllRateLimits(wire(keeper.getAllRateLimits(ctx)))
        .build();
  }

  /**
   * One path's rate limit; an empty response when there is none (as in Go).
   *
   * @throws RateLimitException {@link ErrorCode#INVALID_CHANNEL_OR_CLIENT_ID} for an invalid id,
   *     {@link ErrorCode#INVALID_REQUEST} for an empty or malformed denom
   */
  public QueryRateLimitResponse rateLimit(BlockContext ctx, QueryRateLimitRequest req) {
    requireInitialized(ctx, req);
    RateLimitKeeper.requireQueryId(req.getChannelOrClientId());
    Path path;
    try {
      path = new Path(req.getDenom(), req.getChannelOrClientId());
    } catch (IllegalArgumentException e) {
      throw new RateLimitException(ErrorCode.INVALID_REQUEST, e.getMessage());
    }
    QueryRateLimitResponse.Builder b = QueryRateLimitResponse.newBuilder();
    keeper.getRateLimit(ctx, path).map(GenesisCodec::toProto).ifPresent(b::setRateLimit);
    return b.build();
  }

  /**
   * The rate limits whose channel or client leads to a chain; ids whose chain cannot be resolved
   * are skipped (the Go module fails the whole query).
   *
   * @throws RateLimitException {@link ErrorCode#INVALID_REQUEST} for a blank chain id (no chain
   *     has one: an empty list would read as "no limits lead there")
   */
  public QueryRateLimitsByChainIdResponse rateLimitsByChainId(
      BlockContext ctx, QueryRateLimitsByChainIdRequest req) {
    requireInitialized(ctx, req);
    if (Texts.isGoBlank(req.getChainId())) {
      throw new RateLimitException(ErrorCode.INVALID_REQUEST, "chain_id must not be blank");
    }
    return QueryRateLimitsByChainIdResponse.newBuilder()
        .addAllRateLimits(wire(keeper.getRateLimitsByChainId(ctx, req.getChainId())))
        .build();
  }

  /**
   * The rate limits of one channel or client, by denom.
   *
   * @throws RateLimitException {@link ErrorCode#INVALID_CHANNEL_OR_CLIENT_ID} for an invalid id
   */
  public QueryRateLimitsByChannelOrClientIdResponse rateLimitsByChannelOrClientId(
      BlockContext ctx, QueryRateLimitsByChannelOrClientIdRequest req) {
    requireInitialized(ctx, req);
    return QueryRateLimitsByChannelOrClientIdResponse.newBuilder()
        .addAllRateLimits(
            wire(keeper.getRateLimitsByChannelOrClient(ctx, req.getChannelOrClientId())))
        .build();
  }

  /** Every blacklisted denom, in canonical order. */
  public QueryAllBlacklistedDenomsResponse allBlacklistedDenoms(
      BlockContext ctx, QueryAllBlacklistedDenomsRequest req) {
    requireInitialized(ctx, req);
    return QueryAllBlacklistedDenomsResponse.newBuilder()
        .addAllDenoms(keeper.getAllBlacklistedDenoms(ctx))
        .build();
  }

  /** Every whitelisted (sender, receiver) pair, in canonical order. */
  public QueryAllWhitelistedAddressesResponse allWhitelistedAddresses(
      BlockContext ctx, QueryAllWhitelistedAddressesRequest req) {
    requireInitialized(ctx, req);
    QueryAllWhitelistedAddressesResponse.Builder b =
        QueryAllWhitelistedAddressesResponse.newBuilder();
    keeper.getAllWhitelistedAddressPairs(ctx)
        .forEach(p -> b.addAddressPairs(GenesisCodec.toProto(p)));
    return b.build();
  }

  // ---------------------------------------------------------------- internals

  private static List<dev.ratelimit.proto.v1.RateLimit> wire(List<RateLimit> limits) {
    return limits.stream().map(GenesisCodec::toProto).toList();
  }

  private void requireInitialized(BlockContext ctx, Object request) {
    Objects.requireNonNull(ctx, "ctx");
    Objects.requireNonNull(request, "request");
    if (keeper.getHourEpoch(ctx).isEmpty()) {
      throw new RateLimitException(ErrorCode.HOUR_EPOCH_INVALID,
          "the store holds no hour epoch of the module: InitGenesis never ran on it, or it is not"
              + " the store the keeper reads (give the chain's whole store; the keeper adds its"
              + " prefix)");
    }
  }

  private static <Q extends Message> void add(
      Map<String, Route<?>> routes,
      String rpc,
      Parser<Q> parser,
      BiFunction<BlockContext, Q, ? extends Message> method) {
    routes.put("/" + SERVICE + "/" + rpc, new Route<>(rpc, parser, method));
  }

  private static Set<String> pathsOfTheService() {
    ServiceDescriptor service = QueryOuterClass.getDescriptor().findServiceByName("Query");
    Set<String> paths = new TreeSet<>();
    for (MethodDescriptor m : service.getMethods()) {
      paths.add("/" + service.getFullName() + "/" + m.getName());
    }
    return paths;
  }

  /** One RPC: its request parser and typed method. */
  private record Route<Q extends Message>(
      String rpc, Parser<Q> parser, BiFunction<BlockContext, Q, ? extends Message> method) {
    Message answer(BlockContext ctx, byte[] request) {
      Q req;
      try {
        req = parser.parseFrom(request);
      } catch (InvalidProtocolBufferException e) {
        throw new RateLimitException(ErrorCode.INVALID_REQUEST,
            "request of " + rpc + " is not a Query" + rpc + "Request: " + e.getMessage());
      }
      return method.apply(ctx, req);
    }
  }
}
