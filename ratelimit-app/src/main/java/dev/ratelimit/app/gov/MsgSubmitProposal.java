package dev.ratelimit.app.gov;

import com.google.protobuf.Any;
import dev.ratelimit.app.tx.Msg;
import java.util.List;
import java.util.Objects;

/**
 * Submits a proposal whose messages (e.g. {@code /ratelimit.v1.MsgAddRateLimit} with the gov
 * authority as signer) execute when it passes.
 */
public record MsgSubmitProposal(String proposer, List<Any> messages) implements Msg {
  public MsgSubmitProposal {
    Objects.requireNonNull(proposer, "proposer");
    messages = List.copyOf(messages);
  }
}
