package dev.ratelimit.bench.gas;

import java.util.Locale;

/** The per-packet operations the gas report measures, named as the report prints them. */
public enum PacketOp {
  /** A counted send: check, update the outflow, record the pending send marker. */
  SEND,
  /** A counted receive whose app acknowledges at once (success). */
  RECV,
  /** A success acknowledgement of a counted send. */
  ACK,
  /** An error acknowledgement of a counted send (the outflow is given back). */
  ACK_ERROR,
  /** A timeout of a counted send (the outflow is given back). */
  TIMEOUT,
  /** A counted receive whose app acknowledges later (the pending recv marker stays). */
  RECV_ASYNC,
  /** The later success acknowledgement of {@link #RECV_ASYNC} (the marker is removed). */
  WRITE_ACK;

  /** The name in the report: {@code send}, {@code ack_error}, ... */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
