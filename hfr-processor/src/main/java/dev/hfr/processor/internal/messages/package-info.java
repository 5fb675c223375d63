/**
 * Every diagnostic the HFR processor prints, one class per area. Each message starts with a stable rule
 * id in brackets ({@code [hfr/irreversible-retry]}) and says what is wrong and how to fix it. The
 * validators and the tests both call these methods, so a reworded message cannot drift from its tests.
 */
package dev.hfr.processor.internal.messages;
