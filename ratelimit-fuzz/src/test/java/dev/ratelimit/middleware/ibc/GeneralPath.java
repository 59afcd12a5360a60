package dev.ratelimit.middleware.ibc;

import dev.ratelimit.core.ErrorCode;
import java.util.Map;
import java.util.Set;

/** The general (parser) path of {@link GoJson} alone, so a fuzz test can compare it too. */
public final class GeneralPath {
  private GeneralPath() {}

  public static Map<String, String> readStringObject(byte[] json, Set<String> allowedKeys) {
    return GoJson.readStringObjectGeneral(json, allowedKeys, ErrorCode.INVALID_PACKET_DATA);
  }
}
