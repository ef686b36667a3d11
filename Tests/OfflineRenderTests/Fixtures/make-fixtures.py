"""Writes the two Standard MIDI Files MIDIFileTests reads, with mido (pip install mido; 1.3.3
made the committed files), and prints the time mido gives each channel message: its
iteration yields delta seconds, summed here to times from the start of the file.

Run from this folder: python3 make-fixtures.py
"""
import mido

def message_times(path):
    f = mido.MidiFile(path)
    t = 0.0
    out = []
    for msg in f:
        t += msg.time
        if not msg.is_meta and msg.type != 'sysex':
            out.append((repr(t), msg.bytes()))
    print(path, 'length', repr(f.length))
    for when, data in out:
        print('  ', when, ' '.join('%02X' % b for b in data))

# Format 0, 96 ticks per quarter: a program change, notes in running status, a sysex, a
# tempo change from 120 to 100 BPM in the middle, a controller and a pitch bend.
f0 = mido.MidiFile(type=0, ticks_per_beat=96)
t = mido.MidiTrack()
f0.tracks.append(t)
t.append(mido.Message('program_change', channel=0, program=5, time=0))
t.append(mido.Message('note_on', channel=0, note=60, velocity=100, time=0))
t.append(mido.Message('note_on', channel=0, note=64, velocity=90, time=48))
t.append(mido.Message('note_on', channel=0, note=60, velocity=0, time=48))
t.append(mido.Message('sysex', data=[0x7E, 0x7F, 0x09, 0x01], time=0))
t.append(mido.MetaMessage('set_tempo', tempo=600000, time=0))
t.append(mido.Message('note_on', channel=0, note=64, velocity=0, time=96))
t.append(mido.Message('control_change', channel=0, control=7, value=64, time=10))
t.append(mido.Message('pitchwheel', channel=0, pitch=-2000, time=7))
t.append(mido.Message('aftertouch', channel=0, value=33, time=1))
t.append(mido.MetaMessage('end_of_track', time=100))
f0.save('type0.mid')

# Format 1, 480 ticks per quarter: the tempo map in track 0 (120 BPM, then 150 BPM after two
# quarters, then 90 BPM after three more), notes in tracks 1 and 2 that meet on one tick.
f1 = mido.MidiFile(type=1, ticks_per_beat=480)
tempo = mido.MidiTrack()
tempo.append(mido.MetaMessage('track_name', name='tempo', time=0))
tempo.append(mido.MetaMessage('set_tempo', tempo=500000, time=0))
tempo.append(mido.MetaMessage('set_tempo', tempo=400000, time=960))
tempo.append(mido.MetaMessage('set_tempo', tempo=666667, time=1440))
tempo.append(mido.MetaMessage('end_of_track', time=0))
a = mido.MidiTrack()
a.append(mido.Message('note_on', channel=1, note=48, velocity=80, time=0))
a.append(mido.Message('note_off', channel=1, note=48, velocity=0, time=1000))
a.append(mido.Message('note_on', channel=1, note=50, velocity=81, time=400))
a.append(mido.Message('note_off', channel=1, note=50, velocity=0, time=1001))
a.append(mido.MetaMessage('end_of_track', time=7))
b = mido.MidiTrack()
b.append(mido.Message('control_change', channel=9, control=10, value=20, time=1400))
b.append(mido.Message('note_on', channel=9, note=36, velocity=127, time=0))
b.append(mido.Message('note_on', channel=9, note=36, velocity=0, time=2000))
b.append(mido.MetaMessage('end_of_track', time=0))
f1.tracks += [tempo, a, b]
f1.save('type1.mid')

message_times('type0.mid')
message_times('type1.mid')
