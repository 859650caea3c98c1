// The one thing the pages need of the Embedded App SDK: its DiscordSDK class, as a global of the page
// (window.DiscordSDK), so bot/web/static/activity.js is a plain script under the pages' Content-Security-Policy.
import { DiscordSDK } from "@discord/embedded-app-sdk";

window.DiscordSDK = DiscordSDK;
