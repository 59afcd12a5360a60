package dev.ratelimit.app.gov;

import com.google.protobuf.Any;
import java.util.List;
import java.util.Objects;

/**
 * A governance proposal and its outcome.
 *
 * @param votingEndHeight the block whose EndBlock executes it
 * @param failure why execution failed ({@code ""} unless {@link Status#FAILED})
 */
public record Proposal(
    long id,
    String proposer,
    List<Any> messages,
    long submitHeight,
    long votingEndHeight,
    Status status,
    String failure) {

  /** Where a proposal stands. */
  public enum Status {
    /** Waiting for the end of its voting period. */
    VOTING_PERIOD,
    /** Passed, and every message executed. */
    PASSED,
    /** Passed, but a message failed: nothing of it was applied. */
    FAILED
  }

  public Proposal {
    Objects.requireNonNull(proposer, "proposer");
    messages = List.copyOf(messages);
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(failure, "failure");
  }
}
