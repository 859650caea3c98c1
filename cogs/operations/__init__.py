"""Every Discord call that can fail in an expected way, handled once.

Unknown interaction (10062), already acknowledged (40060), unknown message (10008), missing
permissions (50013), cannot DM (50007), server errors and rate limits with retries, and requests
that never answer (a time-out per attempt). Callers get True/False or a message id, never an
exception from here. Cogs call these instead of wrapping Discord calls in their own try/except.

The calls are in this package's modules, whose names are re-exported here: :mod:`cogs.operations.base` (the
error codes, attempts and time-outs, linked texts, files, mentions), :mod:`cogs.operations.interactions` (the
answers to an interaction), :mod:`cogs.operations.messages` (posts and edits in a channel) and
:mod:`cogs.operations.sends` (recorded actions sent once, direct messages, the hooks for a lost channel or
closed DMs).
"""

from __future__ import annotations

from cogs.channels import BLOCKING_PERMISSIONS as BLOCKING_PERMISSIONS
from cogs.channels import REQUIRED_PERMISSIONS as REQUIRED_PERMISSIONS
from cogs.channels import missing_permissions as missing_permissions
from cogs.operations.base import ALREADY_ACKNOWLEDGED as ALREADY_ACKNOWLEDGED
from cogs.operations.base import CANNOT_DM as CANNOT_DM
from cogs.operations.base import LOST_CHANNEL as LOST_CHANNEL
from cogs.operations.base import MISSING_PERMISSIONS as MISSING_PERMISSIONS
from cogs.operations.base import NO_MENTIONS as NO_MENTIONS
from cogs.operations.base import NONCE_BYTES as NONCE_BYTES
from cogs.operations.base import POST_ATTEMPTS as POST_ATTEMPTS
from cogs.operations.base import POST_BACKOFF_SECONDS as POST_BACKOFF_SECONDS
from cogs.operations.base import POST_TIMEOUT_SECONDS as POST_TIMEOUT_SECONDS
from cogs.operations.base import PUBLIC_THINKING as PUBLIC_THINKING
from cogs.operations.base import RETRYABLE_STATUS as RETRYABLE_STATUS
from cogs.operations.base import THREAD_ARCHIVED as THREAD_ARCHIVED
from cogs.operations.base import UNKNOWN_CHANNEL as UNKNOWN_CHANNEL
from cogs.operations.base import UNKNOWN_INTERACTION as UNKNOWN_INTERACTION
from cogs.operations.base import UNKNOWN_MESSAGE as UNKNOWN_MESSAGE
from cogs.operations.base import _attach as _attach
from cogs.operations.base import _linked_kwargs as _linked_kwargs
from cogs.operations.base import linked as linked
from cogs.operations.base import mentions_of as mentions_of
from cogs.operations.base import png_file as png_file
from cogs.operations.interactions import _delete_thinking as _delete_thinking
from cogs.operations.interactions import defer as defer
from cogs.operations.interactions import edit_original as edit_original
from cogs.operations.interactions import give_notice as give_notice
from cogs.operations.interactions import original_message_id as original_message_id
from cogs.operations.interactions import reply as reply
from cogs.operations.interactions import reply_file as reply_file
from cogs.operations.messages import EDITED as EDITED
from cogs.operations.messages import FAILED as FAILED
from cogs.operations.messages import GONE as GONE
from cogs.operations.messages import WAITING as WAITING
from cogs.operations.messages import _post_text as _post_text
from cogs.operations.messages import edit as edit
from cogs.operations.messages import edit_message as edit_message
from cogs.operations.messages import post as post
from cogs.operations.sends import channel_lost as channel_lost
from cogs.operations.sends import dm as dm
from cogs.operations.sends import dm_once as dm_once
from cogs.operations.sends import dms_closed as dms_closed
from cogs.operations.sends import send_once as send_once
