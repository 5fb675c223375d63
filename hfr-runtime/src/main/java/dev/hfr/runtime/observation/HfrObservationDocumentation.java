package dev.hfr.runtime.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The Observations HFR makes, their keys and events, in one place. Key names follow OpenTelemetry's GenAI
 * semantic conventions where one applies ({@code gen_ai.operation.name}, {@code gen_ai.tool.name},
 * {@code error.type}); HFR's own are under {@code hfr.}.
 */
public enum HfrObservationDocumentation implements ObservationDocumentation {

  /**
   * One tool call through the engine, from the proxy's call to the accepted result or the structured failure.
   * A span named {@code execute_tool <tool>} when a tracing bridge is present; a timer {@code hfr.tool.call}
   * with the low-cardinality keys when a meter handler is.
   */
  TOOL_CALL {
    @Override
    public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
      return DefaultToolCallObservationConvention.class;
    }

    @Override
    public KeyName[] getLowCardinalityKeyNames() {
      return LowCardinalityKeys.values();
    }

    @Override
    public KeyName[] getHighCardinalityKeyNames() {
      return HighCardinalityKeys.values();
    }

    @Override
    public Observation.Event[] getEvents() {
      return Events.values();
    }
  };

  /** Bounded values: on spans and meters. */
  public enum LowCardinalityKeys implements KeyName {
    /** Always {@code execute_tool} (GenAI conventions). */
    OPERATION_NAME {
      @Override
      public String asString() {
        return "gen_ai.operation.name";
      }
    },
    /** The tool, {@code SimpleClass.method} (GenAI conventions). */
    TOOL_NAME {
      @Override
      public String asString() {
        return "gen_ai.tool.name";
      }
    },
    /** The tool's side-effect risk, {@code R0}..{@code R3}. */
    RISK {
      @Override
      public String asString() {
        return "hfr.risk";
      }
    },
    /** The F2D-9 class of the last failure, {@code T1}..{@code V1}, {@code UNCLASSIFIED}, or {@code none}. */
    FAULT {
      @Override
      public String asString() {
        return "hfr.fault";
      }
    },
    /** The last action decided ({@code RETRY}, {@code RECONCILE}, {@code DEGRADE_TOOL}, {@code ESCALATE}, ...) or {@code none}. */
    ACTION {
      @Override
      public String asString() {
        return "hfr.action";
      }
    },
    /** The degradation rung that answered or last ran, {@code L0} (the method itself) to {@code L4}. */
    RUNG {
      @Override
      public String asString() {
        return "hfr.rung";
      }
    },
    /** The write's ledger state at the end ({@code COMMITTED}, {@code UNKNOWN}, ...), or {@code none} for reads. */
    LEDGER_STATE {
      @Override
      public String asString() {
        return "hfr.ledger.state";
      }
    },
    /** How the call ended: {@code SUCCESS}, {@code FAILED} or {@code ESCALATED}. */
    OUTCOME {
      @Override
      public String asString() {
        return "hfr.outcome";
      }
    },
    /** {@code enforce} or {@code shadow}. */
    MODE {
      @Override
      public String asString() {
        return "hfr.mode";
      }
    },
    /** The fault class of a failed call, or {@code none} (OpenTelemetry's general error attribute). */
    ERROR_TYPE {
      @Override
      public String asString() {
        return "error.type";
      }
    }
  }

  /** Unbounded values: on spans only. */
  public enum HighCardinalityKeys implements KeyName {
    /** The task's tenant. */
    TENANT {
      @Override
      public String asString() {
        return "hfr.tenant";
      }
    },
    /** The task's id. */
    TASK_ID {
      @Override
      public String asString() {
        return "hfr.task.id";
      }
    },
    /** How many attempts the call made. */
    ATTEMPTS {
      @Override
      public String asString() {
        return "hfr.attempts";
      }
    }
  }

  /** Events on the call's span (and, with a meter handler, counters named after them). */
  public enum Events implements Observation.Event {
    /**
     * A decision after an attempt, a reconcile or a verification; its contextual name says which attempt, what
     * failed and what was decided: {@code attempt 1: T1 -> RETRY (TRANSIENT_ERROR, wait 120 ms)}.
     */
    DECISION {
      @Override
      public String getName() {
        return "hfr.decision";
      }
    }
  }
}
