package dev.ratelimit.core.model;

/** Which way a packet moves through this chain. */
public enum PacketDirection {
  /** This chain is the packet source: counts as outflow. */
  SEND,
  /** This chain is the packet destination: counts as inflow. */
  RECV
}
