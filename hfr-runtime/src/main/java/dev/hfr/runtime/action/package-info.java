/**
 * The nine recovery actions (Table 3) and the fault → action table the engine starts every decision
 * from ({@link dev.hfr.runtime.action.ActionTable}).
 */
package dev.hfr.runtime.action;
