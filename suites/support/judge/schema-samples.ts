// Hand-written, Mastodon-like valid instances of every resource in the contract.
// Reused by tests; treat as read-only (use structuredClone before changing one).
import type { ResourceName } from './schema.js';

const field = {
  name: 'Website',
  value: '<a href="https://example.org" rel="me nofollow noopener noreferrer" target="_blank">example.org</a>',
  verified_at: '2019-07-15T18:29:57.191Z',
};

const account = {
  id: '1',
  username: 'Gargron',
  acct: 'Gargron',
  display_name: 'Eugen',
  locked: false,
  bot: false,
  created_at: '2016-03-16T14:34:26.392Z',
  note: '<p>Developer of Mastodon and administrator of mastodon.social.</p>',
  url: 'https://mastodon.social/@Gargron',
  avatar: 'https://files.mastodon.social/accounts/avatars/000/000/001/original/d96d39a0abb45b92.jpg',
  avatar_static: 'https://files.mastodon.social/accounts/avatars/000/000/001/original/d96d39a0abb45b92.jpg',
  header: 'https://files.mastodon.social/accounts/headers/000/000/001/original/c91b871f294ea63e.png',
  header_static: 'https://files.mastodon.social/accounts/headers/000/000/001/original/c91b871f294ea63e.png',
  followers_count: 322930,
  following_count: 459,
  statuses_count: 61323,
  last_status_at: '2019-12-10T08:14:44.811Z',
  emojis: [],
  fields: [field, { name: 'Patreon', value: 'https://www.patreon.com/mastodon', verified_at: null }],
};

const attachment = {
  id: '22345792',
  type: 'image',
  url: 'https://files.mastodon.social/media_attachments/files/022/345/792/original/57859aede991da25.jpeg',
  preview_url: 'https://files.mastodon.social/media_attachments/files/022/345/792/small/57859aede991da25.jpeg',
  remote_url: null,
  text_url: 'https://mastodon.social/media/2N4uvkuUtPVrkZGysms',
  meta: {
    original: { width: 640, height: 480, size: '640x480', aspect: 1.3333333333333333 },
    small: { width: 461, height: 346, size: '461x346', aspect: 1.3323699421965318 },
    focus: { x: -0.27, y: 0.51 },
  },
  description: 'A cat sitting on a keyboard',
  blurhash: 'UFBWY:8_0Jxv4mx]t8t64.%M-:IUWGWAt6M}',
};

const card = {
  url: 'https://www.youtube.com/watch?v=OMv_EPMED8Y',
  title: '♪ Brand New Friend (Christmas Song!)',
  description: '',
  type: 'video',
  author_name: 'YOGSCAST Lewis & Simon',
  author_url: 'https://www.youtube.com/user/BlueXephos',
  provider_name: 'YouTube',
  provider_url: 'https://www.youtube.com/',
  html: '<iframe width="480" height="270" src="https://www.youtube.com/embed/OMv_EPMED8Y?feature=oembed" frameborder="0" allowfullscreen=""></iframe>',
  width: 480,
  height: 270,
  image: 'https://files.mastodon.social/preview_cards/images/014/179/145/original/9cf4b7cf5567b569.jpeg',
  embed_url: '',
};

const poll = {
  id: '34830',
  expires_at: '2019-12-05T04:05:08.302Z',
  expired: true,
  multiple: false,
  votes_count: 10,
  voters_count: 10,
  voted: true,
  own_votes: [1],
  options: [
    { title: 'accept', votes_count: 6 },
    { title: 'deny', votes_count: 4 },
  ],
  emojis: [],
};

const status = {
  id: '103270115826048975',
  created_at: '2019-12-08T03:48:33.901Z',
  in_reply_to_id: null,
  in_reply_to_account_id: null,
  sensitive: false,
  spoiler_text: '',
  visibility: 'public',
  language: 'en',
  uri: 'https://mastodon.social/users/Gargron/statuses/103270115826048975',
  url: 'https://mastodon.social/@Gargron/103270115826048975',
  replies_count: 5,
  reblogs_count: 6,
  favourites_count: 11,
  favourited: false,
  reblogged: false,
  muted: false,
  bookmarked: false,
  pinned: false,
  content: '<p>&quot;I lost my inheritance with one wrong digit on my sort code&quot;</p><p><a href="https://www.theguardian.com/money/2019/dec/07/i-lost-my-193000-inheritance-with-one-wrong-digit-on-my-sort-code" rel="nofollow noopener noreferrer" target="_blank"><span class="invisible">https://www.</span><span class="ellipsis">theguardian.com/money/2019/dec</span><span class="invisible">/07/i-lost-my-193000-inheritance-with-one-wrong-digit-on-my-sort-code</span></a></p>',
  reblog: null,
  application: { name: 'Web', website: null },
  account,
  media_attachments: [attachment],
  mentions: [],
  tags: [{ name: 'banking', url: 'https://mastodon.social/tags/banking' }],
  emojis: [],
  card,
  poll: null,
};

const scheduledStatus = {
  id: '3221',
  scheduled_at: '2019-12-05T12:33:01.000Z',
  params: {
    poll: null,
    text: 'test content',
    media_ids: null,
    sensitive: null,
    visibility: null,
    idempotency: null,
    scheduled_at: null,
    spoiler_text: null,
    application_id: 596551,
    in_reply_to_id: null,
  },
  media_attachments: [],
};

export const SAMPLES: Record<ResourceName, unknown> = {
  Status: status,
  Account: account,
  Field: field,
  Application: {
    id: '563419',
    name: 'conformance suite',
    website: null,
    redirect_uri: 'urn:ietf:wg:oauth:2.0:oob',
    client_id: 'TWhM-tNSuncnqN7DBJmoyeLnk6K3iJJ71KKXxgL1hPM',
    client_secret: 'ZEaFUFmF0umgBX1qKJDjaU99Q31lDkOU8NutzTOoliw',
    vapid_key: 'BCk-QqERU0q-CfYZjcuB6lnyyOYfJ2AifKqfeGIm7Z-HiTU5T9eTG5GxVA0_OH5mMlI4UkkDTpaZwozy0TzdZ2M=',
  },
  Token: {
    access_token: 'ZA-Yj3aBD8U8Cm7lKUp-lm9O9BmDgdhHzDeqsY8tlL0',
    token_type: 'Bearer',
    scope: 'read write follow push',
    created_at: 1573979017,
  },
  Error: { error: 'Record not found' },
  Context: {
    ancestors: [status],
    descendants: [
      {
        ...status,
        id: '103270172443374520',
        created_at: '2019-12-08T04:02:57.145Z',
        in_reply_to_id: status.id,
        in_reply_to_account_id: account.id,
        visibility: 'unlisted',
        uri: 'https://mastodon.social/users/Gargron/statuses/103270172443374520',
        url: 'https://mastodon.social/@Gargron/103270172443374520',
        replies_count: 0,
        reblogs_count: 0,
        favourites_count: 2,
        content: '<p>Check your details twice.</p>',
        media_attachments: [],
        tags: [],
        card: null,
        poll,
      },
    ],
  },
  Card: card,
  Poll: poll,
  ScheduledStatus: scheduledStatus,
  Attachment: attachment,
};
