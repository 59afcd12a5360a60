package dev.ratelimit.middleware.ibc;

import dev.ratelimit.core.host.BlockContext;
import java.util.List;
import java.util.Objects;

/**
 * The channel handshake of an {@link IbcModule} that accepts every channel it is offered, with a
 * fixed version: the base for stand-in applications (the scenario runner's transfer app, bench
 * and test fixtures). A real application validates order, port and version instead, as the
 * example chain's ICS-20 app does.
 */
public abstract class AcceptingHandshakes implements IbcModule {
  private final String version;

  /** @param version the version every handshake agrees on (e.g. {@code ics20-1}) */
  protected AcceptingHandshakes(String version) {
    this.version = Objects.requireNonNull(version, "version");
  }

  /** Agrees on the proposed version, or this module's when none is proposed. */
  @Override
  public String onChanOpenInit(
      BlockContext ctx,
      Order order,
      List<String> connectionHops,
      String portId,
      String channelId,
      Counterparty counterparty,
      String proposedVersion) {
    return proposedVersion.isEmpty() ? version : proposedVersion;
  }

  /** Agrees on this module's version. */
  @Override
  public String onChanOpenTry(
      BlockContext ctx,
      Order order,
      List<String> connectionHops,
      String portId,
      String channelId,
      Counterparty counterparty,
      String counterpartyVersion) {
    return version;
  }

  @Override
  public void onChanOpenAck(
      BlockContext ctx,
      String portId,
      String channelId,
      String counterpartyChannelId,
      String counterpartyVersion) {}

  @Override
  public void onChanOpenConfirm(BlockContext ctx, String portId, String channelId) {}

  @Override
  public void onChanCloseInit(BlockContext ctx, String portId, String channelId) {}

  @Override
  public void onChanCloseConfirm(BlockContext ctx, String portId, String channelId) {}
}
