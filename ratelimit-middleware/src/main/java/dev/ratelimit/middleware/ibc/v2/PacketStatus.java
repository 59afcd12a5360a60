package dev.ratelimit.middleware.ibc.v2;

/** What an application's {@link IbcModule#onRecvPacket} did ({@code channeltypesv2.PacketStatus}). */
public enum PacketStatus {
  /** Received; the acknowledgement is written now and the application's writes are kept. */
  SUCCESS,
  /** Refused; IBC core writes the universal error acknowledgement and discards the writes. */
  FAILURE,
  /** Received; the application writes the acknowledgement later, through its wrapper. */
  ASYNC
}
