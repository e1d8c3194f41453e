#!/bin/sh
# Attachments: text files inlined with their names, images as each
# provider's image parts, URLs fetched with a size limit.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY ANTHROPIC_BASE_URL ANTHROPIC_API_KEY
printf 'buy milk\ncall Ann\n' >notes.txt
printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\1\0\0\0\1\10\6\0\0\0' >dot.png
printf '\377\330\377\340\0\20JFIF\0\1\1\0' >pic.jpg
printf 'GIF89a\1\0\1\0\200\0\0' >anim.gif
printf 'RIFF\30\0\0\0WEBPVP8L\13\0\0\0' >still.webp
printf 'ELF\0\1\2\3\377\376' >binary.bin

test_expect_success 'a text file is inlined with its name, before the prompt' '
	llm-call -a notes.txt "What is on my list?" >out &&
	grep "^body.messages" fp/last.req >actual &&
	cat >expect <<-\EOT &&
	body.messages[0].role = "user"
	body.messages[0].content = "<attachment name=\"notes.txt\">\nbuy milk\ncall Ann\n</attachment>\n\nWhat is on my list?"
	EOT
	test_cmp expect actual
'

test_expect_success 'an image is an OpenAI image_url part with a data URL' '
	llm-call -a dot.png "Describe it." >out &&
	echo "echo: Describe it. [1 image]" >expect &&
	test_cmp expect out &&
	grep "^body.messages" fp/last.req >actual &&
	cat >expect <<-EOT &&
	body.messages[0].role = "user"
	body.messages[0].content[0].type = "text"
	body.messages[0].content[0].text = "Describe it."
	body.messages[0].content[1].type = "image_url"
	body.messages[0].content[1].image_url.url = "data:image/png;base64,$(base64 -w0 dot.png)"
	EOT
	test_cmp expect actual
'

test_expect_success 'an image is an Anthropic base64 image block' '
	llm-call -m claude-3-5-haiku-latest -a pic.jpg "Describe it." >out &&
	echo "echo: Describe it. [1 image]" >expect &&
	test_cmp expect out &&
	grep "^body.messages" fp/last.req >actual &&
	cat >expect <<-EOT &&
	body.messages[0].role = "user"
	body.messages[0].content[0].type = "image"
	body.messages[0].content[0].source.type = "base64"
	body.messages[0].content[0].source.media_type = "image/jpeg"
	body.messages[0].content[0].source.data = "$(base64 -w0 pic.jpg)"
	body.messages[0].content[1].type = "text"
	body.messages[0].content[1].text = "Describe it."
	EOT
	test_cmp expect actual
'

test_expect_success 'GIF and WebP by their bytes, whatever the name' '
	cp anim.gif anim.txt &&
	llm-call -m claude-3-5-haiku-latest -a anim.txt -a still.webp -a notes.txt "All." >out &&
	echo "echo: <attachment name=\"notes.txt\">" >expect &&
	head -n 1 out >actual &&
	test_cmp expect actual &&
	tail -n 1 out >actual &&
	echo "All. [2 images]" >expect &&
	test_cmp expect actual &&
	grep "media_type" fp/last.req >actual &&
	cat >expect <<-\EOT &&
	body.messages[0].content[0].source.media_type = "image/gif"
	body.messages[0].content[1].source.media_type = "image/webp"
	EOT
	test_cmp expect actual
'

test_expect_success 'a URL is fetched and inlined under its address' '
	mkdir -p fp/files &&
	printf "remote notes\n" >fp/files/remote.txt &&
	llm-call -a "http://127.0.0.1:$port/redirect/remote.txt" "Read it." >out &&
	grep "^body.messages\[0\].content" fp/last.req >actual &&
	echo "body.messages[0].content = \"<attachment name=\\\\\"http://127.0.0.1:$port/redirect/remote.txt\\\\\">\\\\nremote notes\\\\n</attachment>\\\\n\\\\nRead it.\"" >expect &&
	test_cmp expect actual
'

test_expect_success 'a URL image becomes an image part' '
	cp dot.png fp/files/dot.png &&
	llm-call -a "http://127.0.0.1:$port/files/dot.png" "See." >out &&
	echo "echo: See. [1 image]" >expect &&
	test_cmp expect out
'

test_expect_success 'a URL that fails is an operational error' '
	test_expect_code 1 llm-call -a "http://127.0.0.1:$port/files/none.txt" "x" >out 2>err &&
	echo "llm-call: cannot fetch attachment '\''http://127.0.0.1:$port/files/none.txt'\'': HTTP 404" >expect &&
	test_cmp expect err &&
	test ! -s out
'

test_expect_success 'more than 10 MiB is refused, from a file or a URL' '
	head -c 10485761 /dev/zero | tr "\0" a >fp/files/big.txt &&
	n=$(wc -l <fp/requests.log) &&
	test_expect_code 2 llm-call -a "http://127.0.0.1:$port/files/big.txt" "x" 2>err &&
	echo "llm-call: attachment '\''http://127.0.0.1:$port/files/big.txt'\'' is larger than 10 MiB" >expect &&
	test_cmp expect err &&
	test_expect_code 2 llm-call -a fp/files/big.txt "x" 2>err &&
	echo "llm-call: attachment '\''fp/files/big.txt'\'' is larger than 10 MiB" >expect &&
	test_cmp expect err &&
	test $(wc -l <fp/requests.log) -eq $((n + 1))
'

test_expect_success 'unreadable or unsupported files are usage errors, before any request' '
	n=$(wc -l <fp/requests.log) &&
	test_expect_code 2 llm-call -a nope.txt "x" 2>err &&
	echo "llm-call: cannot read attachment '\''nope.txt'\'': No such file or directory" >expect &&
	test_cmp expect err &&
	test_expect_code 2 llm-call -a binary.bin "x" 2>err &&
	echo "llm-call: attachment '\''binary.bin'\'' is neither UTF-8 text nor a PNG, JPEG, GIF or WebP image" >expect &&
	test_cmp expect err &&
	test_expect_code 2 llm-call -a fp "x" 2>err &&
	echo "llm-call: cannot read attachment '\''fp'\'': it is a directory" >expect &&
	test_cmp expect err &&
	test $(wc -l <fp/requests.log) -eq $n
'

test_expect_success 'TASK_ATTACHMENTS is the default list; -a replaces it' '
	printf "Summarise." | TASK_ATTACHMENTS="[\"notes.txt\", \"dot.png\"]" llm-call >out &&
	tail -n 1 out >actual &&
	echo "Summarise. [1 image]" >expect &&
	test_cmp expect actual &&
	printf "Summarise." | TASK_ATTACHMENTS="[\"notes.txt\", \"dot.png\"]" llm-call -a pic.jpg >out &&
	echo "echo: Summarise. [1 image]" >expect &&
	test_cmp expect out &&
	grep "media_type\|image_url.url" fp/last.req >actual &&
	grep -c "image/jpeg" actual >/dev/null
'

test_expect_success 'no request was malformed' '
	test ! -e fp/errors.log
'

test_done
