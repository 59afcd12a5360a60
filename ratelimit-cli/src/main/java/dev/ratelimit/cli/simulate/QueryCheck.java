package dev.ratelimit.cli.simulate;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.keeper.RemainingCapacity;
import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.RateLimit;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** {@code check_query}: runs a keeper query and compares its answer with the step's expect. */
final class QueryCheck {
  private QueryCheck() {}

  /** Compares the answer with the step's expect (mismatches into {@code out}); returns the answer. */
  static String check(RateLimitKeeper keeper, BlockContext ctx, Step.CheckQuery q, List<String> out) {
    Object answer;
    RuntimeException caught = null;
    try {
      answer = switch (q.query()) {
        case "all_rate_limits" -> keeper.getAllRateLimits(ctx);
        case "rate_limits_by_channel" ->
            keeper.getRateLimitsByChannelOrClient(ctx, q.channelOrClientId().orElseThrow());
        case "rate_limits_by_chain" -> keeper.getRateLimitsByChainId(ctx, q.chainId().orElseThrow());
        case "remaining_capacity" -> keeper.remainingCapacity(ctx, path(q));
        default -> throw new IllegalStateException("unknown query " + q.query());
      };
    } catch (RateLimitException | IllegalArgumentException e) {
      answer = null;
      caught = e;
    }
    final RuntimeException error = caught;
    String shown = error != null ? describe(error) : show(answer);
    if (q.expect().isEmpty()) {
      return shown;
    }
    Step.QueryExpect e = q.expect().get();
    Outcome outcome = e.outcome();
    String got = shown;
    if (error != null) {
      if (outcome.expectsSuccess()) {
        out.add("expected an answer got " + got);
        return shown;
      }
    } else if (!outcome.isEmpty() && !outcome.expectsSuccess()) {
      out.add("expected " + expectedFailure(outcome) + " got " + got);
      return shown;
    }
    if (error != null) {
      outcome.code().ifPresent(c -> {
        if (!(error instanceof RateLimitException r) || !c.matches(r.code())) {
          out.add("expected code " + c + " got " + describe(error));
        }
      });
      return shown;
    }
    if (answer instanceof RemainingCapacity rc) {
      e.send().ifPresent(d -> direction("send", d, rc.send(), out));
      e.recv().ifPresent(d -> direction("recv", d, rc.recv(), out));
      e.windowResetsAt().ifPresent(t -> {
        if (!t.equals(rc.windowResetsAt())) {
          out.add("expected window_resets_at " + t + " got " + rc.windowResetsAt());
        }
      });
      e.secondsUntilReset().ifPresent(s -> {
        if (!s.equals(BigInteger.valueOf(rc.secondsUntilReset()))) {
          out.add("expected seconds_until_reset " + s + " got " + rc.secondsUntilReset());
        }
      });
    } else {
      @SuppressWarnings("unchecked")
      List<RateLimit> limits = (List<RateLimit>) answer;
      e.paths().ifPresent(expected -> {
        List<Step.PathRef> actual =
            limits.stream()
                .map(rl -> new Step.PathRef(rl.path().denom(), rl.path().channelOrClientId()))
                .collect(Collectors.toList());
        if (!actual.equals(expected)) {
          out.add("expected paths " + expected + " got " + actual);
        }
      });
    }
    return shown;
  }

  private static String show(Object answer) {
    if (answer instanceof RemainingCapacity rc) {
      return "send {threshold " + rc.send().threshold() + ", net_flow " + rc.send().netFlow()
          + ", remaining " + remaining(rc.send().remaining()) + "} recv {threshold "
          + rc.recv().threshold() + ", net_flow " + rc.recv().netFlow() + ", remaining "
          + remaining(rc.recv().remaining()) + "} window_resets_at " + rc.windowResetsAt()
          + " seconds_until_reset " + rc.secondsUntilReset();
    }
    @SuppressWarnings("unchecked")
    List<RateLimit> limits = (List<RateLimit>) answer;
    return "paths " + limits.stream().map(rl -> rl.path().toString()).collect(Collectors.toList());
  }

  private static Path path(Step.CheckQuery q) {
    String id = q.channelOrClientId().orElseThrow();
    if (!Identifiers.isChannelOrClientId(id)) {
      throw new RateLimitException(
          ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID, "not a channel or client id: \"" + id + "\"");
    }
    return Simulation.asRequest(() -> new Path(q.denom().orElseThrow(), id)); // an empty denom
  }

  private static void direction(
      String name, Step.DirectionExpect e, RemainingCapacity.Direction d, List<String> out) {
    e.threshold().ifPresent(t -> {
      if (!t.equals(d.threshold())) {
        out.add("expected " + name + ".threshold " + t + " got " + d.threshold());
      }
    });
    e.netFlow().ifPresent(n -> {
      if (!n.equals(d.netFlow())) {
        out.add("expected " + name + ".net_flow " + n + " got " + d.netFlow());
      }
    });
    e.remaining().ifPresent(r -> {
      if (!r.equals(d.remaining())) {
        out.add("expected " + name + ".remaining " + remaining(r) + " got " + remaining(d.remaining()));
      }
    });
  }

  private static String remaining(Optional<BigInteger> r) {
    return r.map(BigInteger::toString).orElse("unlimited");
  }

  static String expectedFailure(Outcome o) {
    return o.code().map(c -> "code " + c).orElse("a failure");
  }

  static String describe(RuntimeException e) {
    if (e instanceof RateLimitException r) {
      return "code " + r.code().label() + " (" + StepOutcome.oneLine(r.getMessage()) + ")";
    }
    return "error " + e.getClass().getSimpleName() + " (" + StepOutcome.oneLine(e.getMessage()) + ")";
  }
}
