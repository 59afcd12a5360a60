package dev.ratelimit.gov;

import com.google.protobuf.Any;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.model.Texts;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Executes the messages of a passed governance proposal: all apply or none (SPEC §7).
 *
 * <p>The messages run in order, through the {@link MsgRouter}, in one {@link BlockContext#branch()}
 * of the given context. If every message succeeds the branch is committed (writes and events); the
 * first failure stops execution, discards the branch (nothing written; of the events only those
 * SPEC §6 keeps on a rollback, such as {@code ratelimit_channel_value_kept}) and is reported.
 *
 * <p>{@link #validate} runs the stateless part of those checks alone, for a host to refuse at
 * submission a proposal that could never pass.
 */
public final class ProposalHandler {
  private final MsgRouter router;

  /** A proposal handler that decodes and executes each message through {@code router}. */
  public ProposalHandler(MsgRouter router) {
    this.router = Objects.requireNonNull(router, "router");
  }

  /**
   * Executes a proposal's messages atomically.
   *
   * @param messages the proposal's messages, each a type URL {@link MsgRouter} accepts
   * @return the responses, one per message, in order
   * @throws RateLimitException {@link ErrorCode#INVALID_REQUEST} for an empty list; otherwise the
   *     first failing message's error, with the same code, a message naming its position and type
   *     URL, and the original exception as its cause. Other exceptions (host failures) propagate
   *     unchanged; in every case nothing is written.
   * @throws NullPointerException if {@code messages} or one of them is null
   */
  public List<Any> execute(BlockContext ctx, List<Any> messages) {
    Objects.requireNonNull(ctx, "ctx");
    List<Any> msgs = requireMessages(messages);
    List<Any> responses = new ArrayList<>(msgs.size());
    try (BlockContext branch = ctx.branch()) {
      for (int i = 0; i < msgs.size(); i++) {
        try {
          responses.add(router.route(branch, msgs.get(i)));
        } catch (RateLimitException e) {
          throw failed(i, msgs, e);
        }
      }
      branch.commit();
    }
    return List.copyOf(responses);
  }

  /**
   * Checks a proposal's messages without executing them: for each, in order, what {@link
   * MsgRouter#validate} checks (type URL, decoding, the signer and the fields). Reads and writes no
   * state: a host runs it when a proposal is submitted, to refuse one that could never pass; {@link
   * #execute} still runs every check, the stateful ones included, when the proposal passes.
   *
   * @param messages the proposal's messages
   * @throws RateLimitException {@link ErrorCode#INVALID_REQUEST} for an empty list; otherwise the
   *     first invalid message's error, worded exactly as {@link #execute} would report it
   * @throws NullPointerException if {@code messages} or one of them is null
   */
  public void validate(List<Any> messages) {
    List<Any> msgs = requireMessages(messages);
    for (int i = 0; i < msgs.size(); i++) {
      try {
        router.validate(msgs.get(i));
      } catch (RateLimitException e) {
        throw failed(i, msgs, e);
      }
    }
  }

  private static List<Any> requireMessages(List<Any> messages) {
    List<Any> msgs = List.copyOf(messages); // null-hostile
    if (msgs.isEmpty()) {
      throw new RateLimitException(
          ErrorCode.INVALID_REQUEST, "a proposal needs at least one message");
    }
    return msgs;
  }

  /** {@code e}, the error of message {@code i}, with the same code and that message named. */
  private static RateLimitException failed(int i, List<Any> msgs, RateLimitException e) {
    return new RateLimitException(
        e.code(),
        "proposal message "
            + (i + 1)
            + " of "
            + msgs.size()
            + " ("
            + shown(msgs.get(i).getTypeUrl())
            + ") failed: "
            + e.detail(), // the code's description leads the new message already
        e);
  }

  /** A type URL as a message shows it: a known one as is, any other quoted, escaped and cut. */
  private static String shown(String typeUrl) {
    return MsgRouter.supportedTypeUrls().contains(typeUrl) ? typeUrl : Texts.quote(typeUrl);
  }
}
