/**
 * Jest setup: errors that carry a catalog message (src/i18n/message-error.ts) say themselves in
 * English, as they do in the pane and the functions, which load the formatter at start. A test of
 * src/excel or src/shaping alone would otherwise read the message id.
 */
import "../../src/i18n/translator";
