package dev.ratelimit.gov;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.Texts;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import dev.ratelimit.proto.v1.MsgAddRateLimitResponse;
import dev.ratelimit.proto.v1.MsgRemoveRateLimit;
import dev.ratelimit.proto.v1.MsgRemoveRateLimitResponse;
import dev.ratelimit.proto.v1.MsgResetRateLimit;
import dev.ratelimit.proto.v1.MsgResetRateLimitResponse;
import dev.ratelimit.proto.v1.MsgUpdateRateLimit;
import dev.ratelimit.proto.v1.MsgUpdateRateLimitResponse;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Executes the module's governance messages ({@code ratelimit.v1.Msg...}, wire-compatible with the
 * Go module's). Only the configured authority (normally the governance module account) may send
 * them.
 *
 * <p><b>Order of checks</b> (SPEC §7); the first broken rule is reported:
 *
 * <ol>
 *   <li>{@code authority} not blank and accepted by the {@link AddressCodec}, else {@link
 *       ErrorCode#INVALID_ADDRESS};
 *   <li>{@code denom} not empty (a blank {@code " "} passes, as in Go);
 *   <li>{@code channel_or_client_id} a channel id ({@code channel-N}) or a client id ({@code
 *       07-tendermint-5}, {@code 09-localhost});
 *   <li>{@code max_percent_send} a canonical decimal integer ({@code "10"}, not {@code "010"}) in
 *       [0, 100];
 *   <li>{@code max_percent_recv} likewise;
 *   <li>not both percentages 0;
 *   <li>{@code duration_hours} not 0 (a uint64, up to 2^64 - 1);
 *   <li>{@code authority} equals the configured authority, else {@link ErrorCode#UNAUTHORIZED};
 *   <li>the stateful checks: add fails with {@link ErrorCode#ZERO_CHANNEL_VALUE} (3), {@link
 *       ErrorCode#RATE_LIMIT_ALREADY_EXISTS} (1), {@link ErrorCode#CHANNEL_NOT_FOUND} (6), in this
 *       order; update, remove and reset fail with {@link ErrorCode#RATE_LIMIT_NOT_FOUND} (2).
 * </ol>
 *
 * Rules 2-7 fail as {@link ErrorCode#INVALID_REQUEST}; rules 4-7 apply to add and update only.
 * Stateless errors therefore win over a wrong signer. Rules 1-8 read no state: {@link
 * MsgRouter#validate} runs them alone, so a host can refuse a proposal when it is submitted (as the
 * Cosmos SDK's gov module does) with the same codes and messages execution would give.
 *
 * <p><b>Atomicity.</b> Each message runs in its own {@link BlockContext#branch()} of the given
 * context, committed only on success: a rejected message writes nothing and emits nothing.
 *
 * <p><b>Events</b> (one per executed message, emitted into {@code ctx} on success; every attribute
 * value is a string, numbers in decimal):
 *
 * <table>
 *   <caption>governance events</caption>
 *   <tr><th>type</th><th>attributes, in order</th></tr>
 *   <tr><td>{@value #EVENT_ADD_RATE_LIMIT}</td><td>module={@code ratelimit}, denom,
 *       channel_or_client, max_percent_send, max_percent_recv, duration_hours, channel_value
 *       (of the new window)</td></tr>
 *   <tr><td>{@value #EVENT_UPDATE_RATE_LIMIT}</td><td>the same as add, with the new quota</td></tr>
 *   <tr><td>{@value #EVENT_REMOVE_RATE_LIMIT}</td><td>module, denom, channel_or_client</td></tr>
 *   <tr><td>{@value #EVENT_RESET_RATE_LIMIT}</td><td>module, denom, channel_or_client,
 *       channel_value (of the new window)</td></tr>
 * </table>
 *
 * Update and reset may also emit the keeper's {@code ratelimit_channel_value_kept} (SPEC §4) when
 * the denom's supply is zero; it is a detail event, kept even when a later message of the same
 * proposal fails (SPEC §6).
 *
 * <p>Stateless apart from its collaborators; thread-confined like the chain that drives it.
 */
public final class RateLimitMsgHandler {
  /** Event type of an executed {@code MsgAddRateLimit}. */
  public static final String EVENT_ADD_RATE_LIMIT = "ratelimit_add_rate_limit";
  /** Event type of an executed {@code MsgUpdateRateLimit}. */
  public static final String EVENT_UPDATE_RATE_LIMIT = "ratelimit_update_rate_limit";
  /** Event type of an executed {@code MsgRemoveRateLimit}. */
  public static final String EVENT_REMOVE_RATE_LIMIT = "ratelimit_remove_rate_limit";
  /** Event type of an executed {@code MsgResetRateLimit}. */
  public static final String EVENT_RESET_RATE_LIMIT = "ratelimit_reset_rate_limit";

  private final RateLimitKeeper keeper;
  private final String authority;
  private final AddressCodec addressCodec;

  /**
   * A handler that accepts messages signed by {@code authority}.
   *
   * @param authority the only signer allowed (e.g. the governance module account)
   * @param addressCodec the host's address format, applied to every message's signer
   * @throws IllegalArgumentException if {@code authority} is blank or {@code addressCodec} rejects
   *     it
   */
  public RateLimitMsgHandler(RateLimitKeeper keeper, String authority, AddressCodec addressCodec) {
    this.keeper = Objects.requireNonNull(keeper, "keeper");
    this.addressCodec = Objects.requireNonNull(addressCodec, "addressCodec");
    Objects.requireNonNull(authority, "authority");
    if (Texts.isGoBlank(authority)) {
      throw new IllegalArgumentException(
          "authority must not be blank, got " + Texts.quote(authority));
    }
    try {
      addressCodec.validate(authority);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "authority " + Texts.quote(authority) + " is not a valid address: " + e.getMessage(), e);
    }
    this.authority = authority;
  }

  /** The configured authority: the only signer whose messages are executed. */
  public String authority() {
    return authority;
  }

  /**
   * Adds a rate limit with a fresh flow {@code {0, 0, supply}}.
   *
   * @throws RateLimitException {@link ErrorCode#INVALID_ADDRESS}, {@link
   *     ErrorCode#INVALID_REQUEST}, {@link ErrorCode#UNAUTHORIZED}, then {@link
   *     ErrorCode#ZERO_CHANNEL_VALUE}, {@link ErrorCode#RATE_LIMIT_ALREADY_EXISTS} or {@link
   *     ErrorCode#CHANNEL_NOT_FOUND}
   */
  public MsgAddRateLimitResponse addRateLimit(BlockContext ctx, MsgAddRateLimit msg) {
    Objects.requireNonNull(ctx, "ctx");
    execute(ctx, check(msg));
    return MsgAddRateLimitResponse.getDefaultInstance();
  }

  /**
   * Replaces a rate limit's quota, starts a fresh window with the current supply and clears the
   * path's pending send and recv markers (so a packet of the old window cannot give capacity back
   * in the new one).
   *
   * @throws RateLimitException {@link ErrorCode#INVALID_ADDRESS}, {@link
   *     ErrorCode#INVALID_REQUEST}, {@link ErrorCode#UNAUTHORIZED} or {@link
   *     ErrorCode#RATE_LIMIT_NOT_FOUND}
   */
  public MsgUpdateRateLimitResponse updateRateLimit(BlockContext ctx, MsgUpdateRateLimit msg) {
    Objects.requireNonNull(ctx, "ctx");
    execute(ctx, check(msg));
    return MsgUpdateRateLimitResponse.getDefaultInstance();
  }

  /**
   * Removes a rate limit and the path's pending send and recv markers.
   *
   * @throws RateLimitException {@link ErrorCode#INVALID_ADDRESS}, {@link
   *     ErrorCode#INVALID_REQUEST}, {@link ErrorCode#UNAUTHORIZED} or {@link
   *     ErrorCode#RATE_LIMIT_NOT_FOUND}
   */
  public MsgRemoveRateLimitResponse removeRateLimit(BlockContext ctx, MsgRemoveRateLimit msg) {
    Objects.requireNonNull(ctx, "ctx");
    execute(ctx, check(msg));
    return MsgRemoveRateLimitResponse.getDefaultInstance();
  }

  /**
   * Starts a fresh window now: flow {@code {0, 0, supply}} (the previous channel value is kept
   * when the supply is zero) and no pending markers for the path.
   *
   * @throws RateLimitException {@link ErrorCode#INVALID_ADDRESS}, {@link
   *     ErrorCode#INVALID_REQUEST}, {@link ErrorCode#UNAUTHORIZED} or {@link
   *     ErrorCode#RATE_LIMIT_NOT_FOUND}
   */
  public MsgResetRateLimitResponse resetRateLimit(BlockContext ctx, MsgResetRateLimit msg) {
    Objects.requireNonNull(ctx, "ctx");
    execute(ctx, check(msg));
    return MsgResetRateLimitResponse.getDefaultInstance();
  }

  // Rules 1-8 of each message, in rule order; they read no state, so MsgRouter.validate runs them
  // at submission and execution runs them again.

  CheckedMsg.Add check(MsgAddRateLimit msg) {
    Objects.requireNonNull(msg, "msg");
    return checkLimit(msg.getAuthority(), msg.getDenom(), msg.getChannelOrClientId(),
        msg.getMaxPercentSend(), msg.getMaxPercentRecv(), msg.getDurationHours(),
        CheckedMsg.Add::new);
  }

  CheckedMsg.Update check(MsgUpdateRateLimit msg) {
    Objects.requireNonNull(msg, "msg");
    return checkLimit(msg.getAuthority(), msg.getDenom(), msg.getChannelOrClientId(),
        msg.getMaxPercentSend(), msg.getMaxPercentRecv(), msg.getDurationHours(),
        CheckedMsg.Update::new);
  }

  CheckedMsg.Remove check(MsgRemoveRateLimit msg) {
    Objects.requireNonNull(msg, "msg");
    return checkPath(msg.getAuthority(), msg.getDenom(), msg.getChannelOrClientId(),
        CheckedMsg.Remove::new);
  }

  CheckedMsg.Reset check(MsgResetRateLimit msg) {
    Objects.requireNonNull(msg, "msg");
    return checkPath(msg.getAuthority(), msg.getDenom(), msg.getChannelOrClientId(),
        CheckedMsg.Reset::new);
  }

  /** Rules 1-8 of a message with a quota (add, update). */
  private <T extends CheckedMsg> T checkLimit(String authority, String denom,
      String channelOrClientId, String maxPercentSend, String maxPercentRecv, long durationHours,
      BiFunction<Path, Quota, T> checked) {
    MsgValidation.requireAddress(authority, addressCodec);
    Path path = MsgValidation.path(denom, channelOrClientId);
    Quota quota = MsgValidation.quota(maxPercentSend, maxPercentRecv, durationHours);
    requireAuthority(authority);
    return checked.apply(path, quota);
  }

  /** Rules 1-3 and 8 of a message without a quota (remove, reset). */
  private <T extends CheckedMsg> T checkPath(String authority, String denom,
      String channelOrClientId, Function<Path, T> checked) {
    MsgValidation.requireAddress(authority, addressCodec);
    Path path = MsgValidation.path(denom, channelOrClientId);
    requireAuthority(authority);
    return checked.apply(path);
  }

  /**
   * Rule 9 and the write of a checked message, in a branch of {@code ctx}: committed if it
   * returns, discarded if not.
   */
  void execute(BlockContext ctx, CheckedMsg msg) {
    try (BlockContext branch = ctx.branch()) {
      msg.apply(keeper, branch);
      branch.commit();
    }
  }

  /** Rule 8: an exact string match, as in Go. */
  private void requireAuthority(String signer) {
    if (!authority.equals(signer)) {
      throw new RateLimitException(
          ErrorCode.UNAUTHORIZED,
          "expected authority " + Texts.quote(authority) + ", got " + Texts.quote(signer));
    }
  }
}
