"""Notifications: what a player is told when they are away (docs/notifications.md).

`message` holds what every channel is handed; the inbox, preferences and dispatch decide
who is told what and when; each channel (e-mail, Web Push, webhooks) only delivers.
"""
