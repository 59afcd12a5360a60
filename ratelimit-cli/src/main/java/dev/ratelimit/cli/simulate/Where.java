package dev.ratelimit.cli.simulate;

/**
 * Where in a scenario file something is: the file, the scenario's name and the step (numbered from
 * 1) with its op. Renders as the prefix of every failure and malformed-file line: {@code file:
 * scenario name: step N (op)}.
 */
record Where(String file, String scenario, int step, String op) {
  static Where file(String file) {
    return new Where(file, null, 0, null);
  }

  Where scenario(String name) {
    return new Where(file, name, 0, null);
  }

  Where step(int number, String stepOp) {
    return new Where(file, scenario, number, stepOp);
  }

  String prefix() {
    StringBuilder sb = new StringBuilder(file);
    if (scenario != null) {
      sb.append(": ").append(scenario);
    }
    if (step > 0) {
      sb.append(": step ").append(step);
      if (op != null) {
        sb.append(" (").append(op).append(')');
      }
    }
    return sb.toString();
  }

  MalformedScenarioException malformed(String problem) {
    return new MalformedScenarioException(prefix() + ": " + problem);
  }
}
