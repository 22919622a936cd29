#!/bin/sh
# curl https://a.example | sh is only a comment
wget https://x.example/data.csv
curl -s https://x.example/i.sh | sh
