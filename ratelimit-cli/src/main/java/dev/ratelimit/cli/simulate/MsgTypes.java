package dev.ratelimit.cli.simulate;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.util.JsonFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The governance messages a scenario's {@code msg} may carry: the four of {@code ratelimit.v1}
 * (signer field {@code authority}) and the four of ibc-go's {@code
 * ibc.applications.rate_limiting.v1} (signer field {@code signer}).
 */
final class MsgTypes {
  private static final List<Descriptor> DESCRIPTORS =
      List.of(
          dev.ratelimit.proto.v1.MsgAddRateLimit.getDescriptor(),
          dev.ratelimit.proto.v1.MsgUpdateRateLimit.getDescriptor(),
          dev.ratelimit.proto.v1.MsgRemoveRateLimit.getDescriptor(),
          dev.ratelimit.proto.v1.MsgResetRateLimit.getDescriptor(),
          dev.ratelimit.proto.ibc.ratelimiting.v1.MsgAddRateLimit.getDescriptor(),
          dev.ratelimit.proto.ibc.ratelimiting.v1.MsgUpdateRateLimit.getDescriptor(),
          dev.ratelimit.proto.ibc.ratelimiting.v1.MsgRemoveRateLimit.getDescriptor(),
          dev.ratelimit.proto.ibc.ratelimiting.v1.MsgResetRateLimit.getDescriptor());

  static final JsonFormat.TypeRegistry REGISTRY =
      JsonFormat.TypeRegistry.newBuilder().add(DESCRIPTORS).build();

  private static final Map<String, Descriptor> BY_TYPE_URL =
      DESCRIPTORS.stream().collect(Collectors.toUnmodifiableMap(d -> "/" + d.getFullName(), d -> d));

  private MsgTypes() {}

  /** The message type of one of the eight type URLs above, or empty for any other URL. */
  static Optional<Descriptor> descriptor(String typeUrl) {
    return Optional.ofNullable(BY_TYPE_URL.get(typeUrl));
  }
}
