/**
 * What every agent adapter shares about the agent loop: a conversation is a task ({@link
 * dev.hfr.runtime.conversation.ConversationTasks}), and the model is told, in the execution contract, what
 * happened to its call and whether calling again helps ({@link dev.hfr.runtime.conversation.ModelAnswers}).
 */
package dev.hfr.runtime.conversation;
